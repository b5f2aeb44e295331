"""What a person checks and decides: one pair side by side (pairs), the review loop (loop, session),
the decisions as CSV (decisions_csv) and the threshold the decisions suggest (evaluate)."""

from ..runs.review_pairs import group_pairs
from .decisions_csv import CSV_HEADER, export_decisions, import_decisions, read_decisions_csv
from .evaluate import eval_decisions
from .loop import ANSWERS, ReviewTally, review_loop
from .pairs import explain_pair, pair_view
from .session import pairs_to_review, run_review

__all__ = ["ANSWERS", "CSV_HEADER", "ReviewTally", "eval_decisions", "explain_pair", "export_decisions", "group_pairs",
           "import_decisions", "pair_view", "pairs_to_review", "read_decisions_csv", "review_loop", "run_review"]
