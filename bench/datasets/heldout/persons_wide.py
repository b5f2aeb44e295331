"""Held-out labelled person records, 12 columns wide, with duplicates made by an edit mix of their own.

    python -m bench.datasets.heldout.persons_wide --rows 20000 --seed 100 --out DIR [--fingerprint auto|row|fields]

writes DIR/persons.db (SQLite table ``persons``: id, surname, given_name, street_number,
address_1, address_2, suburb, postcode, state, gender, date_of_birth, id_number, phone,
updated_at), DIR/truth.csv (``key,cluster``), DIR/kinds.csv (``key,kind``) and DIR/dedup.yaml
(every column a field; the table's ``fingerprint`` as given). Never used to choose dedup's
defaults; report on seeds 100 and up (README.md). Standard library only; deterministic given
(rows, seed).

Kinds of rows (``KINDS``; a cluster's rows all carry its kind):

- ``duplicate``: one person entered 2-4 times; each copy after the first has 1-4 edits: a
  homophone or look-alike typo in a name or address, given name and surname swapped, 1-3 columns
  left empty (NULL), the date of birth written another way (1990/3/5, 19900305, 1990年3月5日),
  two neighbouring digits of the phone or id number transposed, the address abbreviated
  (3栋2单元501 -> 3-2-501, 小区 and 街道 dropped, 号 dropped from the street number).
- ``family``: 2-4 people of one household: same surname, address and phone, own given name,
  gender, date of birth and id number. Different people: each row a cluster of its own.
- ``namesake``: someone with the full name of an earlier person (often the same state and
  gender), everything else their own. A cluster of its own.
- ``distinct``: everyone else.
"""

from __future__ import annotations

import random

from bench.datasets.heldout.common import (
    HeldOut, finish, phone, run_cli, transpose_digits, typo)
from bench.datasets.heldout.common import write_all as common_write_all

KINDS = ("duplicate", "family", "namesake", "distinct")
COLUMNS = ["surname", "given_name", "street_number", "address_1", "address_2", "suburb", "postcode", "state",
           "gender", "date_of_birth", "id_number", "phone", "updated_at"]
# Target share of rows of each kind (distinct: the rest) and mean cluster size.
MIX = {"duplicate": (0.30, 2.5), "family": (0.10, 2.6), "namesake": (0.05, 1)}
FIELDS = {"surname": {"kind": "chars", "n": 1, "weight": 1.5}, "given_name": {"kind": "chars", "n": 1, "weight": 2},
          "street_number": "short", "address_1": "chars", "address_2": "chars", "suburb": "chars",
          "postcode": "short", "state": "short", "gender": "short",
          "date_of_birth": {"kind": "chars", "weight": 2}, "id_number": {"kind": "chars", "weight": 3},
          "phone": {"kind": "chars", "weight": 1.5}}

# state -> (id-number region prefix, postcode prefix, suburbs); 9 provinces.
STATES = {
    "广东省": ("44", "51", ("天河区", "越秀区", "海珠区", "白云区", "番禺区", "南山区", "福田区", "禅城区")),
    "江苏省": ("32", "21", ("玄武区", "秦淮区", "鼓楼区", "姑苏区", "虎丘区", "梁溪区", "锡山区", "钟楼区")),
    "浙江省": ("33", "31", ("西湖区", "上城区", "拱墅区", "滨江区", "鄞州区", "海曙区", "鹿城区", "越城区")),
    "山东省": ("37", "25", ("历下区", "市中区", "槐荫区", "天桥区", "市南区", "崂山区", "张店区", "奎文区")),
    "河南省": ("41", "45", ("金水区", "二七区", "中原区", "管城区", "惠济区", "龙亭区", "西工区", "文峰区")),
    "四川省": ("51", "61", ("锦江区", "青羊区", "金牛区", "武侯区", "成华区", "涪城区", "翠屏区", "东坡区")),
    "湖北省": ("42", "43", ("江岸区", "江汉区", "武昌区", "洪山区", "汉阳区", "西陵区", "襄城区", "黄州区")),
    "河北省": ("13", "05", ("长安区", "桥西区", "新华区", "裕华区", "路北区", "莲池区", "竞秀区", "丛台区")),
    "陕西省": ("61", "71", ("新城区", "碑林区", "莲湖区", "雁塔区", "未央区", "灞桥区", "渭城区", "金台区")),
}
STATE_NAMES = tuple(STATES)
SURNAMES = ("王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭", "何", "高",
            "林", "罗", "郑", "梁", "谢", "宋", "唐", "许", "韩", "冯", "邓", "曹", "彭", "曾", "肖", "田", "董", "袁",
            "潘", "蒋", "蔡", "余", "杜", "叶", "程", "苏", "魏", "吕", "丁", "任", "沈", "姚", "卢", "姜", "崔", "钟",
            "谭", "陆", "汪", "范", "金", "石", "廖", "贾", "夏", "方", "白", "邹", "孟", "熊", "秦", "邱", "江", "欧阳",
            "司马", "诸葛")
# Heavier weights on the commonest surnames (as in the population: 王李张刘陈 are about a third).
SURNAME_WEIGHTS = [8, 8, 7, 6, 5] + [2] * 15 + [1] * (len(SURNAMES) - 20)
MALE = "伟强磊军勇杰涛明超刚平辉鹏华飞鑫波斌宇浩凯健俊帆帅旭宁龙林阳建国志文博峰亮成东"
FEMALE = "芳娜敏静丽艳娟霞秀英玲桂兰萍红梅琳雪婷倩洁颖慧琪悦欣怡佳晶燕莉薇凤云琴珍月"
ROADS = ("人民", "建设", "解放", "中山", "胜利", "和平", "新华", "光明", "幸福", "团结", "文化", "东风", "红旗",
         "朝阳", "青年", "育才", "滨江", "迎宾", "工业", "公园", "府前", "学府", "金沙", "太平", "长春", "振兴")
ROAD_KINDS = ("路", "街", "大道", "巷", "东路", "西路", "南路", "北路")
ESTATES = ("阳光", "锦绣", "翠苑", "金色", "碧水", "华府", "紫荆", "香榭", "枫林", "康居", "丽景", "御景", "名都",
           "怡景", "安居", "书香", "龙湖", "世纪", "东方", "嘉园", "学苑", "春晖")
_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)  # GB 11643 id-number check weights


def id_check(first17: str) -> str:
    """The 18th character of a Chinese resident id number (ISO 7064 MOD 11-2)."""
    return "10X98765432"[sum(int(c) * w for c, w in zip(first17, _WEIGHTS)) % 11]


def _given(rng: random.Random, gender: str) -> str:
    pool = MALE if gender == "男" else FEMALE
    return "".join(rng.choice(pool) for _ in range(rng.choice((1, 2, 2, 2))))


def household(rng: random.Random, state: str | None = None) -> dict:
    """Where someone lives (in ``state`` when given) and the household's phone."""
    state = state or rng.choice(STATE_NAMES)
    region, post, suburbs = STATES[state]
    k = rng.randrange(len(suburbs))
    flat = f"{rng.randint(1, 30)}栋{rng.randint(1, 6)}单元{rng.randint(1, 30)}0{rng.randint(1, 4)}"
    return {"street_number": f"{rng.randint(1, 999)}号", "address_1": rng.choice(ROADS) + rng.choice(ROAD_KINDS),
            "address_2": (rng.choice(ESTATES) + rng.choice(("小区", "花园", "家园", "公寓")) + flat) if rng.random() < 0.8 else flat,
            "suburb": suburbs[k] + (rng.choice(ROADS) + "街道" if rng.random() < 0.5 else ""),
            "postcode": f"{post}{k:01d}{rng.randint(0, 9)}{rng.randint(0, 9)}0", "state": state,
            "phone": phone(rng), "_region": f"{region}{rng.randint(1, 20):02d}{k + 1:02d}"}


def person(rng: random.Random, home: dict, surname: str | None = None, born: tuple[int, int] = (1940, 2015)) -> dict:
    gender = rng.choice(("男", "女"))
    y, m, d = rng.randint(*born), rng.randint(1, 12), rng.randint(1, 28)
    seq = rng.randrange(0, 1000, 2) + (1 if gender == "男" else 0)  # odd: male, even: female
    first17 = f"{home['_region']}{y:04d}{m:02d}{d:02d}{seq % 1000:03d}"
    return {**home, "surname": surname or rng.choices(SURNAMES, SURNAME_WEIGHTS)[0], "given_name": _given(rng, gender),
            "gender": gender, "date_of_birth": f"{y:04d}-{m:02d}-{d:02d}", "id_number": first17 + id_check(first17),
            "_born": y}


# ---------------------------------------------------------------------------------------------
# Edits of a duplicate copy

def _dob_format(rng: random.Random, dob: str) -> str:
    y, m, d = dob.split("-")
    fmt = rng.choice(("{y}/{m}/{d}", "{y}{mm}{dd}", "{y}年{m}月{d}日", "{y}.{mm}.{dd}"))
    return fmt.format(y=y, m=int(m), d=int(d), mm=m, dd=d)


def _abbreviate(rng: random.Random, row: dict) -> None:
    a2 = row["address_2"]
    if a2:
        for old, new in (("单元", "-"), ("栋", "-"), ("小区", ""), ("公寓", ""), ("花园", "")):
            if rng.random() < 0.7:
                a2 = a2.replace(old, new)
        row["address_2"] = a2
    if row["suburb"] and "街道" in row["suburb"] and rng.random() < 0.6:
        row["suburb"] = row["suburb"].split("区")[0] + "区"
    if row["address_1"] and rng.random() < 0.4:
        row["address_1"] = row["address_1"].replace("大道", "道").replace("东路", "东").replace("西路", "西")
    if row["street_number"] and rng.random() < 0.5:
        row["street_number"] = row["street_number"].rstrip("号")


EMPTIABLE = ("street_number", "address_2", "suburb", "postcode", "date_of_birth", "id_number", "phone", "gender",
             "address_1")


def copy_of(rng: random.Random, base: dict) -> dict:
    """One more entry of the same person: 1-4 edits."""
    row = dict(base)
    for edit in rng.sample(("name_typo", "swap", "empty", "dob", "transpose", "abbrev", "addr_typo"),
                           rng.choice((1, 2, 2, 3, 4))):
        if edit == "name_typo":
            col = "given_name" if rng.random() < 0.7 else "surname"
            row[col] = typo(rng, row[col]) if row[col] else row[col]
        elif edit == "swap":
            row["surname"], row["given_name"] = row["given_name"], row["surname"]
        elif edit == "empty":
            for col in rng.sample(EMPTIABLE, rng.randint(1, 3)):
                row[col] = None
        elif edit == "dob" and row["date_of_birth"]:
            row["date_of_birth"] = _dob_format(rng, row["date_of_birth"])
        elif edit == "transpose":
            col = rng.choice(("phone", "id_number"))
            row[col] = transpose_digits(rng, row[col]) if row[col] else row[col]
        elif edit == "abbrev":
            _abbreviate(rng, row)
        else:
            col = rng.choice(("address_1", "address_2", "suburb"))
            row[col] = typo(rng, row[col]) if row[col] else row[col]
    return row


# ---------------------------------------------------------------------------------------------
# The set


def generate_persons(n_rows: int, seed: int = 100) -> HeldOut:
    rng = random.Random(seed)
    made: list[tuple[dict, str, str]] = []
    earlier: list[dict] = []
    kinds = list(MIX) + ["distinct"]
    weights = [share / mean for share, mean in MIX.values()] + [1 - sum(share for share, _ in MIX.values())]
    day = 0
    cluster = 0

    def add(row: dict, kind: str, label: str) -> None:
        nonlocal day
        day += rng.randint(0, 3)
        stamp = f"2025-{1 + day // 28 % 12:02d}-{1 + day % 28:02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00"
        made.append(({**row, "updated_at": stamp}, kind, label))

    while len(made) < n_rows:
        kind = rng.choices(kinds, weights)[0]
        if kind == "duplicate":
            cluster += 1
            base = person(rng, household(rng))
            add(base, kind, f"c{cluster}")
            for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
                add(copy_of(rng, base), kind, f"c{cluster}")
            earlier.append(base)
        elif kind == "family":
            home = household(rng)
            surname = rng.choices(SURNAMES, SURNAME_WEIGHTS)[0]
            parent = rng.randint(1945, 1990)
            members = [person(rng, home, surname, (parent, parent + 3)), person(rng, home, surname, (parent, parent + 5))]
            members += [person(rng, home, surname, (parent + 20, parent + 35)) for _ in range(rng.choice((0, 0, 1, 2)))]
            for m in members:
                add(m, kind, f"r{len(made)}")
            earlier.extend(members)
        elif kind == "namesake" and earlier:
            model = rng.choice(earlier)
            home = household(rng, model["state"] if rng.random() < 0.6 else None)  # often the same province
            twin = person(rng, home, model["surname"])
            twin["given_name"] = model["given_name"]
            add(twin, kind, f"r{len(made)}")
        else:
            p = person(rng, household(rng))
            add(p, "distinct", f"r{len(made)}")
            earlier.append(p)
        if len(earlier) > 4000:
            del earlier[:2000]
    return finish(rng, "persons", COLUMNS, made[:n_rows])


def write_all(data: HeldOut, out: str, fingerprint: str = "auto") -> None:
    common_write_all(data, out, "persons", FIELDS, {"fingerprint": fingerprint})


def _fingerprint_arg(ap) -> None:
    ap.add_argument("--fingerprint", choices=("auto", "row", "fields"), default="auto",
                    help="tables.persons.fingerprint in the written dedup.yaml")


def main(argv: list[str] | None = None) -> None:
    run_cli(__doc__, "persons", generate_persons, lambda data, out, args: write_all(data, out, args.fingerprint),
            KINDS, None, argv, _fingerprint_arg)


if __name__ == "__main__":
    main()
