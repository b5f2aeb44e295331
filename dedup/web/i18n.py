"""The workbench's words in Chinese and English: one table, looked up by key, so that a page never
mixes languages and a missing translation fails a test instead of showing a key."""

from __future__ import annotations

LANGS = ("zh", "en")

MESSAGES: dict[str, tuple[str, str]] = {  # key -> (zh, en)
    "title": ("查重工作台", "Duplicate workbench"),
    "groups": ("重复组", "Groups"),
    "queue": ("审核队列", "Review queue"),
    "history": ("操作记录", "History"),
    "reviewer": ("审核人", "Reviewer"),
    "change_name": ("更换", "change"),
    "your_name": ("请输入您的姓名（记录在每个决定中）", "Your name (kept with each decision)"),
    "save": ("保存", "Save"),
    "login": ("登录", "Sign in"),
    "token": ("访问令牌", "Access token"),
    "bad_token": ("令牌不正确", "Wrong token"),
    "read_only": ("只读模式：不能修改", "Read-only: no changes can be made"),
    "search": ("搜索", "Search"),
    "search_hint": ("编号、姓名或任意词语", "key, name or any words"),
    "min_size": ("最少行数", "at least rows"),
    "run": ("某次运行改动的", "changed by run"),
    "since_run": ("某次运行以来新的", "new since run"),
    "any": ("全部", "any"),
    "undecided": ("有未审核的关联", "has undecided links"),
    "weak": ("有弱关联", "has a weak link"),
    "date_from": ("日期从", "date from"),
    "date_to": ("到", "to"),
    "sort": ("排序", "sort"),
    "sort_size": ("行数多的在前", "largest first"),
    "sort_newest": ("最新的在前", "newest first"),
    "sort_weakest": ("关联最弱的在前", "weakest link first"),
    "filter": ("筛选", "Filter"),
    "clear": ("清除", "Clear"),
    "count_groups": ("组", "groups"),
    "count_rows": ("行在组中", "rows in groups"),
    "count_shown": ("符合条件", "match"),
    "count_undecided": ("组有未审核的关联", "groups with undecided links"),
    "count_weak": ("组有弱关联", "groups with a weak link"),
    "group": ("组", "Group"),
    "size": ("行数", "Rows"),
    "date": ("日期", "Date"),
    "first_row": ("首行", "First row"),
    "weakest": ("最弱关联", "Weakest link"),
    "status": ("状态", "Status"),
    "decided": ("已审核", "decided"),
    "open": ("待审核", "to review"),
    "no_groups": ("没有符合条件的组", "No group matches"),
    "no_run": ("此表还没有运行过：请先运行 dedup full", "No run recorded for this table yet: run dedup full first"),
    "prev": ("上一页", "previous"),
    "next": ("下一页", "next"),
    "page": ("页", "page"),
    "key": ("编号", "Key"),
    "filed": ("提交日期", "Filed"),
    "links": ("关联", "Links"),
    "similarity": ("相似度", "similarity"),
    "rule": ("规则", "rule"),
    "measure": ("度量", "measure"),
    "threshold": ("阈值", "threshold"),
    "same": ("是同一事项", "Same"),
    "different": ("不是同一事项", "Different"),
    "skip": ("跳过", "Skip"),
    "take_out": ("移出本组", "Take out"),
    "split": ("拆分", "Split"),
    "split_help": ("为每行选择它属于第几部分，然后拆分", "Choose a part for each row, then split"),
    "part": ("部分", "part"),
    "merge": ("与另一组合并", "Merge with group"),
    "note": ("备注", "Note"),
    "add_note": ("添加备注", "Add note"),
    "undo": ("撤销上一步", "Undo last action"),
    "actions": ("操作", "Actions"),
    "pair_actions": ("两行关系", "Pair"),
    "weakest_marked": ("红色为最弱关联", "the weakest link in red"),
    "decision": ("决定", "decision"),
    "none": ("无", "none"),
    "gone": ("此组已不存在（可能已被拆分或合并）", "This group no longer exists (split or merged)"),
    "queue_empty": ("没有待审核的关联", "Nothing to review"),
    "queue_weak": ("最弱的未审核关联", "Weakest undecided links"),
    "queue_calibrate": ("阈值附近的校准样本", "Calibration pairs around the threshold"),
    "shortcuts": ("快捷键：s 是同一事项，d 不是，k 跳过", "Keys: s same, d different, k skip"),
    "left": ("剩余", "left"),
    "done_mark": ("已记录", "Recorded"),
    "done_undo": ("已撤销", "Undone"),
    "undone": ("已撤销", "undone"),
    "act_mark": ("判定两行", "pair decided"),
    "act_take_out": ("移出本组", "row taken out"),
    "act_split": ("拆分", "split"),
    "act_merge": ("合并", "merged"),
    "act_forget": ("撤回决定", "decision forgotten"),
    "act_import": ("导入", "imported"),
    "not_in_source": ("（源表中已没有此行）", "(no longer in the source)"),
    "when": ("时间", "When"),
    "action": ("操作", "Action"),
    "rows": ("行", "Rows"),
    "lang_other": ("English", "中文"),
    "forbidden": ("请求被拒绝", "Request refused"),
    "csrf": ("表单已过期，请重新加载页面", "The form expired: reload the page"),
    "error": ("出错了", "Something went wrong"),
    "not_found": ("没有这个页面", "No such page"),
}


# dedup.runs.explain.Scorer.measure, in Chinese
MEASURES = {
    "estimated Jaccard similarity of the contents": "内容的 Jaccard 相似度（估计值）",
    "weighted field score": "各字段加权得分",
    "weighted field similarity": "各字段加权相似度",
}


def translator(lang: str):
    """A function key -> text in ``lang`` (zh or en)."""
    at = LANGS.index(lang) if lang in LANGS else 0

    def t(key: str) -> str:
        return MESSAGES[key][at]

    return t


def measure_in(lang: str, measure: str | None) -> str | None:
    """The scorer's measure in ``lang`` (English as it is; Chinese where known)."""
    return MEASURES.get(measure or "", measure) if lang == "zh" else measure
