"""The HTML report's words in Chinese and English, and which one a reader gets."""

from __future__ import annotations

import os
from collections.abc import Mapping

LANGS = ("zh", "en")

LABELS = {
    "en": {
        "title": "Duplicate groups", "groups": "groups", "rows_in_groups": "rows in groups",
        "largest": "largest group", "skipped": "rows skipped", "deleted_rows": "rows deleted from the source",
        "omitted": "groups not shown (--limit, --min-size)", "since_run": "changed by run",
        "filter": "Filter: key, name, any text…", "shown": "{n} of {total} groups shown",
        "sort": "Sort", "by_size": "largest first", "by_id": "by group number", "in_order": "report order",
        "group": "Group {id}", "rows": "{n} rows", "key": "key", "distance": "distance",
        "link": "closest link", "deleted": "deleted from the source", "new_row": "new",
        "legend_distance": "distance: fingerprint bits (of 64) in which a row differs from the group's first "
                           "row; 0 is the same text. Closest link: the row it is most similar to, with the "
                           "similarity (1 = identical).",
        "legend_simhash": "Rows are grouped when some pair is within {max} bits, so a row reached through "
                          "another may show more.",
        "legend_minhash": "Rows are grouped when MinHash finds a pair similar enough (match.threshold), not "
                          "by this distance; a row reached through another may differ more from the first row.",
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
        "group": "第 {id} 组", "rows": "{n} 条", "key": "编号", "distance": "距离",
        "link": "最相近的记录", "deleted": "源表中已删除", "new_row": "新",
        "legend_distance": "距离：该记录与本组第一条记录的指纹（64 位）中不同的位数，0 表示文本相同。"
                           "最相近的记录：与该记录最相似的记录及相似度（1 表示完全相同）。",
        "legend_simhash": "只要有一对记录的距离不超过 {max} 就归为一组，因此经由其他记录连入的记录距离可能更大。",
        "legend_minhash": "分组依据是 MinHash 相似度（match.threshold）而不是这个距离；"
                          "经由其他记录连入的记录与第一条记录的差别可能更大。",
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


def pick_lang(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``explicit`` (--lang) when given, else the locale's language (LC_ALL, LC_MESSAGES, LANG): zh or en."""
    if explicit:
        return explicit if explicit in LANGS else "en"
    env = os.environ if environ is None else environ
    locale = next((env[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(v)), "")
    return "zh" if locale.lower().startswith("zh") else "en"
