"""The report's words in Chinese and English (HTML, terminal table, CSV cells), and which one a
reader gets: --lang, else the language of the data (Chinese text: zh), else the locale's."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

_CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

LANGS = ("zh", "en")

LABELS: dict[str, dict[str, Any]] = {
    "en": {
        "title": "Duplicate groups", "groups": "groups", "rows_in_groups": "rows in groups",
        "largest": "largest group", "skipped": "rows skipped", "deleted_rows": "rows deleted from the source",
        "omitted": "groups not shown (--limit, --min-size)", "since_run": "changed by run",
        "filter": "Filter: key, name, any text…", "shown": "{n} of {total} groups shown",
        "sort": "Sort", "by_size": "largest first", "by_id": "by group number", "in_order": "report order",
        "by_weakest": "weakest link first",
        "group": "Group {id}", "rows": "{n} rows", "key": "key", "date": "filed",
        "link": "most similar to", "deleted": "deleted from the source", "new_row": "new",
        "weakest": "weakest link", "weakest_note": "weakest link {a} – {b}: similarity {sim}{rule}",
        "similarity": "similarity",
        "legend_similarity": "Similarity: how alike two rows are by the number that decided the match (100% = "
                             "the same text). Each row names the row it is most similar to and the rule that "
                             "accepted the link; a group holds together through its links, and its weakest "
                             "link (marked) is where a wrong group most likely hangs.",
        "legend_simhash": "Rows are grouped when a pair's fingerprints differ in at most {max} bits; a row "
                          "reached through another may differ more.",
        "legend_minhash": "Rows are grouped when a pair is similar enough (match.threshold, lower when a name, "
                          "phone or id is equal); a row reached through another may differ more from the rest.",
        "rules": {"content": "similar text", "content_identity": "similar text, an identity field equal",
                  "distinct": "same distinctive details (places, numbers)",
                  "numbers": "similar text, the same numbers (dates, amounts)",
                  "short": "short text, nearly the same", "short_identity": "short text, an identity field equal",
                  "record": "fields alike (record score)", "fields": "fields alike",
                  "simhash": "similar fingerprints"},
        "legend_marks": "Highlighted: text that differs from the group's first row; struck through: text the "
                        "first row has and this row lacks.",
        "merged_from": "merged from groups {ids}", "split_from": "split from group {ids}",
        "change": {"new": "new group", "grown": "grown", "merged": "merged", "split": "split", "gone": "gone",
                   "shrunk": "rows left", "unchanged": "unchanged"},
        "decisions": "Decisions", "same": "the same matter", "different": "not the same matter",
        "skipped_title": "Skipped rows", "reason": "reason", "detail": "detail",
        "none": "No duplicate groups.", "recipe": "recipe",
        "more_rows": "… and {n} more rows (all of them: --format csv or json)",
    },
    "zh": {
        "title": "重复组报告", "groups": "个重复组", "rows_in_groups": "条记录在组中",
        "largest": "最大组的记录数", "skipped": "条记录被跳过", "deleted_rows": "条记录已从源表删除",
        "omitted": "个组未显示（--limit、--min-size）", "since_run": "来自运行",
        "filter": "筛选：编号、姓名、任意文字…", "shown": "显示 {n} / {total} 个组",
        "sort": "排序", "by_size": "按大小（大在前）", "by_id": "按组号", "in_order": "报告顺序",
        "by_weakest": "最弱关联在前",
        "group": "第 {id} 组", "rows": "{n} 条", "key": "编号", "date": "登记时间",
        "link": "最相似的记录", "deleted": "源表中已删除", "new_row": "新",
        "weakest": "最弱的关联", "weakest_note": "最弱的关联 {a} – {b}：相似度 {sim}{rule}",
        "similarity": "相似度",
        "legend_similarity": "相似度：按判定重复所用的数值衡量两条记录有多相像（100% 表示文本相同）。"
                             "每条记录列出与它最相似的记录及认定这条关联的规则；一组记录靠这些关联连在一起，"
                             "最弱的关联（已标出）最可能是误并的地方。",
        "legend_simhash": "两条记录的指纹相差不超过 {max} 位即归为一组；经由其他记录连入的记录差别可能更大。",
        "legend_minhash": "两条记录足够相似（match.threshold；姓名、电话或证件号相同时门槛更低）即归为一组；"
                          "经由其他记录连入的记录与其余记录的差别可能更大。",
        "rules": {"content": "内容相似", "content_identity": "内容相似且身份信息相同",
                  "distinct": "地点、数字等具体细节相同",
                  "numbers": "内容相似且日期、数额等数字相同",
                  "short": "短文本几乎相同", "short_identity": "短文本且身份信息相同",
                  "record": "各字段相符（记录得分）", "fields": "各字段相符", "simhash": "指纹相近"},
        "legend_marks": "高亮：与本组第一条记录不同的文字；删除线：第一条记录有而本记录没有的文字。",
        "merged_from": "由第 {ids} 组合并而来", "split_from": "由第 {ids} 组拆分而来",
        "change": {"new": "新组", "grown": "有新增记录", "merged": "已合并", "split": "已拆分", "gone": "已消失",
                   "shrunk": "有记录移出", "unchanged": "无变化"},
        "decisions": "审核决定", "same": "同一事项", "different": "不是同一事项",
        "skipped_title": "跳过的记录", "reason": "原因", "detail": "说明",
        "none": "没有重复组。", "recipe": "方法",
        "more_rows": "……另有 {n} 条记录未列出（全部记录：--format csv 或 json）",
    },
}


def data_lang(report: dict) -> str | None:
    """zh when the report's rows hold Chinese text (any display value), else None (no say)."""
    for g in report.get("groups", ()):
        for r in g.get("rows", ()):
            if any(isinstance(v, str) and _CJK.search(v) for k, v in r.items() if k not in ("key", "link")):
                return "zh"
    return None


def rule_text(rule: str | None, L: dict) -> str:
    """A rule's plain words (dedup.runs.rules names them; a name not known here is shown as it is)."""
    return "" if not rule else L["rules"].get(rule, rule)


def percent(similarity: float | None) -> str:
    """A similarity as a clerk reads it: 0.8734 -> 87%, never 100% unless it is 1."""
    if similarity is None:
        return ""
    return "100%" if similarity >= 1 else f"{min(int(similarity * 100 + 0.5), 99)}%"


def date_text(value) -> str:
    """A date or time as a clerk reads it: ISO ``2024-03-01T08:30:05`` as ``2024-03-01 08:30:05``."""
    return "" if value is None else re.sub(r"^(\d{4}-\d\d-\d\d)T(?=\d)", r"\1 ", str(value))


def pick_lang(explicit: str | None = None, environ: Mapping[str, str] | None = None, report: dict | None = None) -> str:
    """``explicit`` (--lang) when given, else zh when the report's data is Chinese text, else the
    locale's language (LC_ALL, LC_MESSAGES, LANG): zh or en."""
    if explicit:
        return explicit if explicit in LANGS else "en"
    if report is not None and data_lang(report):
        return "zh"
    env = os.environ if environ is None else environ
    locale = next((env[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(v)), "")
    return "zh" if locale.lower().startswith("zh") else "en"
