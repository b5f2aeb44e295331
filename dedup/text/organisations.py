"""Organisation names as distinctive details beside the place names (session 45, issue 22).

Letters of one standard form around one body template, filed by people of different companies,
shops, schools or hospitals, differ only in the organisation's name: no residential place is named,
so rule ``places_against`` had nothing to read and such letters joined at the bar
(bench/results/forms7-s45.md). An organisation name here is the run of up to four Han characters
before an organisation ending (公司, 有限公司, 集团, 医院, 学校, 超市 ...): the name and its trade
(新星置业公司: 新星置业), since two firms of one trade share the two characters before the ending.
The names are stored after the place names (dedup.text.numbers), their hashes marked apart
(dedup.index.numbers.ORG_BIT), and compared apart: two letters that both name places are judged on
their places as before; otherwise two naming organisations, none the same, are evidence against the
pair. Pooled with the places, a generic name every letter of a template shares (物业和维保公司 →
维保公司) hid two communities (the first try of session 45).
"""

from __future__ import annotations

import re

# longest first, so 有限公司 is the ending of 新星置业有限公司 (its name 新星置业, not 置业有限)
ORG_ENDINGS = ("股份有限公司", "有限责任公司", "有限公司", "公司", "集团", "医院", "卫生院", "学校", "小学", "中学",
               "幼儿园", "超市", "商场", "酒店", "宾馆", "银行", "药店")
NAME_CHARS = 4  # Han characters before the ending kept: a name (2) and its trade (2)
# the character before an ending that makes it no name: 该公司, 本公司, 贵公司, 这家医院, 责令公司, 向学校 ...
_NO_NAME = frozenset("该本贵此这那其各每家令向给让被对把到从在和与及的了是为于也都就而或并且个离求促系知")
_ENDING = re.compile("|".join(ORG_ENDINGS))


def organisation_tokens(text: str) -> set[str]:
    """The organisation names of NFKC ``text``: each ending with the Han characters before it, at
    most NAME_CHARS and none a function character or determiner (在, 向, 该, 本 ...), at least 2."""
    found = set()
    for m in _ENDING.finditer(text):
        q = m.start()
        start = q
        while start > 0 and q - start < NAME_CHARS and "\u4e00" <= text[start - 1] <= "\u9fff" \
                and text[start - 1] not in _NO_NAME:
            start -= 1
        if q - start >= 2:
            found.add(text[start:q] + m.group())
    return found
