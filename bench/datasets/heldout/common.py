"""What the held-out sets share: their own typo tables, output (SQLite, truth CSV, dedup.yaml) and
summary. Standard library only; written independently of bench/datasets/labelled (nothing imported from it)."""

from __future__ import annotations

import argparse
import csv
import hashlib
import os
import random
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

# Characters confused by sound (same or near pinyin) or by shape, as typists and input methods
# confuse them. Each pair goes both ways.
_CONFUSED = (
    "的地 的得 在再 是事 和合 人入 中钟 有又 这着 大太 为位 不布 发法 会汇 上尚 生升 对队 到道 以已"
    " 已己 时十 们门 要耀 经径 就旧 进近 工公 作做 市事 部步 民名 主住 区曲 化花 家加 全权 新心 动懂"
    " 力历 政正 府付 展站 体提 问闻 理里 行形 建见 设社 分份 反返 映应 请清 解接 决绝 处出 房防 费废"
    " 款宽 资姿 金今 物务 员园 镇振 村寸 街接 路露 号好 楼搂 期其 间见 重众 与于 由有 制治 度渡 济挤"
    " 统通 调掉 查察 关观 系细 机几 构购 实识 施师 改该 产铲 品拼 量两 质治 场厂 末未 土士 日曰 王玉"
    " 天夭 千干 免兔 午牛 人八 找我 持待 候侯 拔拨 即既 副幅 辨辩 坐座 象像 那哪 他她 做座 帐账 练炼"
    " 历厉 须需 记纪 意义 施实 元园 年念 月越 学雪 校效 生声 活火 水谁 电店 话画 费非 用拥 求球 况矿"
    " 情请 单但 位未 报抱 告诰 领令 导倒 局据 委萎 长常 书输 明名 华化 国囯 业叶 小晓 明鸣 伟玮 军君"
    " 强墙 丽莉 芳方 敏民 静净 杰洁 涛滔 斌彬 峰锋 红宏 英鹰 桂贵 燕艳 霞侠 秀绣 玲铃 娟鹃 勇涌 刚钢"
    " 平萍 辉晖 志智 建健 林琳 海嗨 波博 宁凝 东冬 兰蓝 春椿 龙隆 凤奉 王汪 张章 李里 刘留 陈晨 杨扬"
    " 黄皇 周舟 吴武 徐许 孙荪 胡湖 朱珠 高膏 何河 郭锅 马玛 罗萝 梁粱 宋送 郑正 谢泻 韩寒 唐堂 冯逢"
    " 于余 董懂 程成 曹漕 袁元 邓登 傅付 沈审 曾增 彭膨 吕侣 苏酥 卢炉 蒋奖 蔡菜 贾假 丁叮 魏巍 薛雪"
    " 叶页 阎严 余于 潘盼 杜肚 戴带 夏下 钟中 汪王 田填 任认 姜江 范饭 方芳 石时 姚摇 谭潭 廖料 邹走"
    " 熊雄 金今 陆路 郝好 孔恐 白百 崔催 康慷 毛毫 邱丘 秦琴 江姜 史使 顾故 侯候 邵绍 孟梦 龚恭 万方"
)
HOMOPHONE: dict[str, list[str]] = {}
for _pair in _CONFUSED.split():
    _a, _b = _pair
    HOMOPHONE.setdefault(_a, []).append(_b)
    HOMOPHONE.setdefault(_b, []).append(_a)

# Full-width punctuation and its half-width form (typed with the input method off).
_FULL = "，。：；！？（）“”、"
_HALF = ",.:;!?()\"\","
TO_HALF = dict(zip(_FULL, _HALF))
TO_FULL = {h: f for f, h in TO_HALF.items() if h not in '",'} | {",": "，", '"': "“"}
_WIDTH = TO_HALF | TO_FULL


def typo(rng: random.Random, text: str, count: int = 1) -> str:
    """``text`` with up to ``count`` characters swapped for a homophone or look-alike (fewer when
    the text has fewer confusable characters); never changes a text that has none."""
    chars = list(text)
    spots = [i for i, c in enumerate(chars) if c in HOMOPHONE]
    for i in rng.sample(spots, min(count, len(spots))):
        chars[i] = rng.choice(HOMOPHONE[chars[i]])
    return "".join(chars)


def punct_width(rng: random.Random, text: str, share: float) -> str:
    """Each full-width punctuation mark becomes half-width with probability ``share`` (and the other
    way round for the half-width ones)."""
    chars = list(text)
    for i, c in enumerate(chars):
        if c in _WIDTH and rng.random() < share:
            chars[i] = _WIDTH[c]
    return "".join(chars)


_FULL_DIGITS = "０１２３４５６７８９"
DIGITS = frozenset("0123456789" + _FULL_DIGITS)


def digit_spots(text: str) -> list[int]:
    """Where the ASCII and full-width digits are (not ①, ² and the like)."""
    return [i for i, c in enumerate(text) if c in DIGITS]


def change_digit(rng: random.Random, text: str) -> str | None:
    """One digit (ASCII or full-width) replaced by another of the same width; None without digits."""
    spots = digit_spots(text)
    if not spots:
        return None
    i = rng.choice(spots)
    full = text[i] in _FULL_DIGITS
    old = _FULL_DIGITS.index(text[i]) if full else int(text[i])
    new = (old + rng.randint(1, 9)) % 10
    return text[:i] + (_FULL_DIGITS[new] if full else str(new)) + text[i + 1:]


def transpose_digits(rng: random.Random, text: str) -> str:
    """Two neighbouring, different digits swapped (the text unchanged when there are none)."""
    spots = [i for i in range(len(text) - 1)
             if text[i] in DIGITS and text[i + 1] in DIGITS and text[i] != text[i + 1]]
    if not spots:
        return text
    i = rng.choice(spots)
    return text[:i] + text[i + 1] + text[i] + text[i + 2:]


def phone(rng: random.Random) -> str:
    """An 11-digit mainland mobile number."""
    return rng.choice(("13", "15", "18", "17", "19")) + str(rng.randint(0, 9)) + f"{rng.randrange(10**8):08d}"


# ---------------------------------------------------------------------------------------------
# A labelled set and its output


@dataclass
class HeldOut:
    """Rows with truth: ``truth`` row id -> cluster label (a row duplicating nothing has its own),
    ``kinds`` row id -> how the row was made (the generator's ``KINDS``)."""

    table: str
    columns: list[str]
    rows: list[dict]
    truth: dict[int, str] = field(default_factory=dict)
    kinds: dict[int, str] = field(default_factory=dict)

    def true_pairs(self) -> int:
        return sum(s * (s - 1) // 2 for s in Counter(self.truth.values()).values())

    def digest(self) -> str:
        """SHA-256 over every row and its label, in id order: equal digests, equal sets."""
        h = hashlib.sha256()
        for r in self.rows:
            h.update(repr([r[c] for c in self.columns]).encode("utf-8"))
            h.update(f"|{self.truth[r['id']]}|{self.kinds[r['id']]}\n".encode("utf-8"))
        return h.hexdigest()


def finish(rng: random.Random, table: str, columns: list[str], made: list[tuple[dict, str, str]]) -> HeldOut:
    """Rows (row, kind, cluster label) in a shuffled id order, so a cluster's rows are not neighbours."""
    ids = list(range(1, len(made) + 1))
    rng.shuffle(ids)
    out = HeldOut(table, ["id"] + columns, [])
    for i, (row, kind, label) in zip(ids, made):
        out.rows.append({"id": i, **{c: row.get(c) for c in columns}})
        out.truth[i] = label
        out.kinds[i] = kind
    out.rows.sort(key=lambda r: r["id"])
    out.truth = dict(sorted(out.truth.items()))
    out.kinds = dict(sorted(out.kinds.items()))
    return out


def write_sqlite(data: HeldOut, path: str) -> None:
    """(Re)create the set's table in the SQLite file at ``path``: id INTEGER key, the rest TEXT."""
    con = sqlite3.connect(path)
    try:
        q = '"' + data.table + '"'
        con.execute(f"DROP TABLE IF EXISTS {q}")
        cols = ", ".join(f'"{c}" TEXT' for c in data.columns[1:])
        con.execute(f"CREATE TABLE {q} (id INTEGER PRIMARY KEY, {cols})")
        marks = ", ".join("?" * len(data.columns))
        con.executemany(f"INSERT INTO {q} VALUES ({marks})", ([r[c] for c in data.columns] for r in data.rows))
        con.commit()
    finally:
        con.close()


def write_truth(data: HeldOut, path: str) -> None:
    """``key,cluster`` at ``path`` (what ``dedup eval --truth`` reads) and ``key,kind`` beside it
    in kinds.csv (what by_kind.py reads)."""
    for name, column, values in ((path, "cluster", data.truth),
                                 (os.path.join(os.path.dirname(path), "kinds.csv"), "kind", data.kinds)):
        with open(name, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["key", column])
            w.writerows(values.items())


def write_config(path: str, table: str, fields: dict, extra: dict | None = None) -> None:
    """A dedup.yaml next to the data: source petitions/persons.db, a store beside it, the fields.
    Written by hand (plain YAML, relative SQLite paths resolve against the file's folder)."""
    db = f"{table}.db"
    lines = ["# written by bench/datasets/heldout: a held-out labelled set, never used to choose defaults",
             "source:", f'  url: "sqlite:///{db}"', "store:", f'  url: "sqlite:///{table}-store.db"',
             "tables:", f"  {table}:", "    key: id", "    watermark: updated_at", "    fields:"]
    for name, spec in fields.items():
        if isinstance(spec, str):
            lines.append(f"      {name}: {spec}")
        else:
            lines.append(f"      {name}: {{" + ", ".join(f"{k}: {v}" for k, v in spec.items()) + "}")
    for k, v in (extra or {}).items():
        lines.append(f"    {k}: {v}")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def summary(data: HeldOut, kinds: tuple[str, ...], length_of: str | None = None) -> str:
    """Rows per kind, cluster sizes, true pairs and (for text) length percentiles, as text."""
    n = len(data.rows)
    per_kind = Counter(data.kinds.values())
    sizes = Counter(Counter(data.truth.values()).values())
    lines = [f"rows {n}; true pairs {data.true_pairs()}; rows in clusters of 2+: "
             f"{sum(s * c for s, c in sizes.items() if s > 1)}"]
    lines += [f"  {k:<22} {per_kind.get(k, 0):>7} ({per_kind.get(k, 0) / max(n, 1):6.1%})" for k in kinds]
    lines.append("cluster sizes: " + ", ".join(f"{s}: {sizes[s]}" for s in sorted(sizes)))
    if length_of and n:
        lengths = sorted(len(r[length_of] or "") for r in data.rows)
        lines.append(f"{length_of} length: " + ", ".join(
            f"p{p} {lengths[min(n - 1, p * n // 100)]}" for p in (5, 25, 50, 75, 95)))
    return "\n".join(lines)


def write_all(data: HeldOut, out: str, table: str, fields: dict, extra: dict | None = None) -> None:
    """``out``/<table>.db, truth.csv and a dedup.yaml for the set."""
    os.makedirs(out, exist_ok=True)
    write_sqlite(data, os.path.join(out, f"{table}.db"))
    write_truth(data, os.path.join(out, "truth.csv"))
    write_config(os.path.join(out, "dedup.yaml"), table, fields, extra)


def run_cli(doc: str, table: str, generate, write, kinds: tuple[str, ...], length_of: str | None = None,
            argv: list[str] | None = None, extra_args=None) -> None:
    """The command line both generators share: --rows, --seed, --out (and ``extra_args(parser)``);
    ``write(data, out, args)`` writes the files; prints the set's summary and how long it took."""

    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=100, help="100 and up for reporting")
    ap.add_argument("--out", default=".", help=f"folder for {table}.db, truth.csv and dedup.yaml")
    if extra_args is not None:
        extra_args(ap)
    args = ap.parse_args(argv)
    t0, c0 = time.perf_counter(), time.process_time()
    data = generate(args.rows, args.seed)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    write(data, args.out, args)
    print(summary(data, kinds, length_of))
    print(f"generated in {seconds:.1f} s (CPU {cpu:.1f} s); digest {data.digest()[:16]}")


class Clock:
    """Filing times: every row later than the last one of its cluster."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.start = datetime(2024, 1, 1)

    def first(self) -> datetime:
        return self.start + timedelta(seconds=self.rng.randrange(300 * 86400))

    def later(self, t: datetime) -> datetime:
        return t + timedelta(seconds=self.rng.randrange(3600, 40 * 86400))


def stamp(t: datetime) -> str:
    return f"{t.year:04d}-{t.month:02d}-{t.day:02d} {t.hour:02d}:{t.minute:02d}:{t.second:02d}"
