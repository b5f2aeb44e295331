"""The run summary's keys are a contract (what `full --json` / `incremental --json` print and the
store keeps): defined once in dedup.runs.summary, pinned here, and read by `dedup runs`."""

from dedup.report.runs import COLUMNS, COUNTS
from dedup.runs.results import FullResult, IncrementalResult
from dedup.runs.summary import CHANGE_COUNTS
from dedup.store import Skipped

FULL_KEYS = {"table", "run", "rows", "fingerprinted", "groups", "rows_in_groups", "skipped_no_features", "unreadable",
             "duplicate_keys", "null_keys", "bad_keys", "truncated", "truncated_rows", "new_groups", "grown_groups",
             "shrunk_groups", "merged_groups", "split_groups", "dissolved_groups", "rows_left_groups", "seconds",
             "started", "sizes", "warnings"}
INCREMENTAL_KEYS = {"table", "run", "rows", "fingerprinted", "changed", "new_groups", "grown_groups", "shrunk_groups",
                    "merged_groups", "dissolved_groups", "split_groups", "rows_joining_groups", "rows_left_groups",
                    "skipped", "unreadable", "truncated", "truncated_rows", "null_watermark", "unchanged",
                    "lookback_from", "reconciled", "deleted", "unseen_rows", "merges", "seconds", "started", "sizes",
                    "warnings"}


def test_each_kind_prints_exactly_its_keys():
    assert set(FullResult(table="t").summary()) == FULL_KEYS
    assert set(IncrementalResult(table="t").summary()) == INCREMENTAL_KEYS


def test_the_values_come_from_the_results_fields():
    full = FullResult(table="t", run_id=4, rows_read=9, keys=["1", "2"], seconds=1.23456,
                      skipped=[Skipped("3", "no_features", ""), Skipped("4", "bad_key", "")],
                      changes={**dict.fromkeys(CHANGE_COUNTS, 0), "merged_groups": 2})
    s = full.summary()
    assert (s["run"], s["rows"], s["fingerprinted"], s["skipped_no_features"], s["bad_keys"], s["merged_groups"],
            s["seconds"]) == (4, 9, 2, 1, 1, 2, 1.235)
    inc = IncrementalResult(table="t", merges={7: [9, 8]}, new_groups=[1, 2], rows_leaving=3, lookback_from=None)
    s = inc.summary()
    assert (s["merged_groups"], s["new_groups"], s["rows_left_groups"], s["merges"], s["lookback_from"]) == (
        2, 2, 3, [{"into": 7, "from": [9, 8]}], None)


def test_dedup_runs_has_a_column_for_every_change_count():
    assert set(COLUMNS) == set(CHANGE_COUNTS)
    assert [c for _, c in COUNTS] == ["new", "grown", "merged", "split", "shrunk", "gone", "left"]
