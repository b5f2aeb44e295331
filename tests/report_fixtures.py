"""A small petitions table with groups of three sizes, CJK and NULL display values, for the report tests."""

from __future__ import annotations

from pathlib import Path

from helpers import make_table, petition
from test_pipeline import BASE, OTHER

THIRD = ("小区门口的路灯已经坏了两个多月，晚上出行非常不方便，老人和孩子经常摔倒。"
         "我们向街道办事处反映过很多次，一直没有人来修理，请尽快派人维修路灯。")


def report_project(tmp_path: Path) -> Path:
    """Groups: keys 1-3 (BASE; key 2's name NULL), 10-11 (OTHER, ASCII and CJK names), 20-23 (THIRD)."""
    rows = [petition(1, BASE, "张三", title="噪音扰民"), petition(2, BASE + "。", None, title="噪音扰民！"),
            petition(3, BASE, "Zhang San", title="噪音"),
            petition(10, OTHER, "Li Si", title="拖欠工资"), petition(11, OTHER, "李四", title="欠薪"),
            *(petition(20 + i, THIRD, f"王{i}", title="路灯不亮") for i in range(4)),
            petition(30, "完全不同的一段内容，与其他任何诉求都没有关系，用来检验不会被误归为一组。", "赵六")]
    make_table(f"sqlite:///{tmp_path / 'src.db'}", rows)
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(
        'source: {url: "sqlite:///src.db"}\nstore: {url: "sqlite:///store.db"}\n'
        "tables:\n  petitions:\n    key: id\n    watermark: updated_at\n"
        "    fields: {name: short, title: text, content: text}\n"
        "    display: [name, title]\n", encoding="utf-8")
    return cfg
