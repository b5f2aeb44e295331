"""The eval page and terminal summary: self-contained, escaped, and robust to missing parts."""

import copy
import re

import pytest

from dedup.eval.chart import _ticks, render_eval_html
from dedup.eval.summary import render_eval_text

HOSTILE = "<script>alert(1)</script>' onmouseover='x"


def _point(value, p, r, groups=100):
    return {"value": value, "precision": p, "recall": r, "f1": 2 * p * r / (p + r), "groups": groups,
            "predicted_pairs": 1000}


RESULT = {
    "table": "petitions", "rows": 20000, "truth_clusters": 5400,
    "current": {"label": "max_distance=8, verify=0.80", "precision": 0.991, "recall": 0.975, "f1": 0.983,
                "groups": 5300, "predicted_pairs": 12000, "true_pairs": 12100, "correct_pairs": 11900},
    "sweeps": [
        {"knob": "verify.min_similarity", "current": 0.8,
         "points": [_point(0.6, 0.50, 0.99), _point(0.8, 0.95, 0.97), _point(0.9, 0.99, 0.80, 12345)]},
        {"knob": "simhash.max_distance", "current": 8,
         "points": [_point(4, 0.999, 0.90), _point(8, 0.99, 0.975), _point(12, 0.97, 0.99)]},
    ],
    "histograms": [
        {"measure": "64-bit Hamming distance", "bins": list(range(12)), "threshold": 8,
         "true": [900, 500, 300, 100, 60, 30, 20, 10, 5, 2, 1, 1], "false": [0, 0, 0, 1, 2, 3, 5, 9, 20, 40, 80, 90]},
        {"measure": "similarity", "bins": [0.0, 0.25, 0.5, 0.75], "threshold": 0.8,
         "true": [1, 2, 5, 9], "false": [7, 4, 2, 1]},
    ],
    "false_pairs": [{"a": "17", "b": "250", "distance": 7, "similarity": 0.83, "a_cluster": "c1",
                     "b_cluster": "c9", "a_text": HOSTILE, "b_text": "路灯不亮"}],
    "missed_pairs": [{"a": "3", "b": "4", "distance": 11, "similarity": 0.41, "a_cluster": "c2",
                      "b_cluster": "c2", "a_text": "x" * 500, "b_text": None}],
}


@pytest.fixture
def result():
    return copy.deepcopy(RESULT)


def _svgs(page: str, cls: str) -> int:
    return page.count(f"<svg class='{cls}'")


def test_page_is_one_self_contained_document(result):
    page = render_eval_html(result)
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert page.count("<html") == 1 and page.count("<body>") == 1
    assert not re.search(r"(src|href)\s*=\s*['\"]?\s*(https?:)?//", page)
    for outside in ("http://", "https://", "<script", "<link", "@import", "url("):
        assert outside not in page


def test_one_svg_per_chart(result):
    page = render_eval_html(result)
    assert _svgs(page, "sweep") == 2 and _svgs(page, "pr") == 2 and _svgs(page, "hist") == 2
    assert _svgs(page, "zoom") == 1           # only max_distance has every score at 0.8 or more
    assert page.count("<svg") == page.count("</svg>") == 7


def test_hostile_strings_are_escaped_everywhere(result):
    result["table"] = result["sweeps"][0]["knob"] = result["histograms"][0]["measure"] = HOSTILE
    result["false_pairs"][0]["a_cluster"] = result["current"]["label"] = HOSTILE
    result["false_pairs"][0]["b_text"] = HOSTILE * 50      # truncated, full text in a title attribute
    page = render_eval_html(result)
    assert "<script" not in page and "' onmouseover=" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&#x27; onmouseover=&#x27;x" in page
    assert f"title='{'&lt;script&gt;alert(1)&lt;/script&gt;&#x27; onmouseover=&#x27;x' * 50}'" in page


def test_long_texts_are_clipped_with_the_full_text_in_title(result):
    page = render_eval_html(result)
    assert f"title='{'x' * 500}'>{'x' * 199}…</td>" in page
    assert "<td class='text'>路灯不亮</td>" in page


def test_only_the_first_50_pairs_are_shown(result):
    result["false_pairs"] = [dict(result["false_pairs"][0], a=f"key{i}") for i in range(70)]
    page = render_eval_html(result)
    assert "<td>key49</td>" in page and "<td>key50</td>" not in page
    assert "the first 50 of 100 shown" in page  # 70 kept of 12000 - 11900


def test_current_values_and_thresholds_are_marked(result):
    page = render_eval_html(result)
    assert "current: 0.8</text>" in page and "current: 8</text>" in page
    assert page.count("r='6'") == 2                       # the ringed current point of each PR chart
    assert "threshold 8: pairs ≤ 8 pass" in page
    assert "threshold 0.8: pairs ≥ 0.8 pass" in page


def test_distance_threshold_sits_between_the_passing_and_failing_bins(result):
    hist = render_eval_html({"histograms": result["histograms"][:1]})
    line = float(re.search(r"<line class='threshold' x1='([\d.]+)'", hist).group(1))
    def bars(b):    # (left, right) of the true and false bars of bin b
        return [(float(x), float(x) + float(w)) for x, w in re.findall(
            rf"<rect x='([\d.]+)' y='[\d.]+' width='([\d.]+)'[^>]*><title>{b}: ", hist)]
    assert len(bars(8)) == len(bars(9)) == 2
    assert max(r for _, r in bars(8)) < line < min(x for x, _ in bars(9))


def test_histogram_scale_is_log_only_when_counts_span_orders_of_magnitude(result):
    assert "pairs (log scale)" in render_eval_html({"histograms": result["histograms"][:1]})
    assert "log scale" not in render_eval_html({"histograms": result["histograms"][1:]})


@pytest.mark.parametrize("missing", [{}, {"sweeps": [], "histograms": [], "false_pairs": [], "missed_pairs": []}])
def test_missing_or_empty_sections(missing):
    result = {"table": "t", "rows": 3, "truth_clusters": 2, "current": {"precision": 1.0}, **missing}
    page = render_eval_html(result)
    assert "<svg" not in page and "Sweeps" not in page
    assert ("False pairs" in page) == ("false_pairs" in missing)
    assert "<h1>dedup eval: t</h1>" in page
    assert render_eval_text(result).startswith("t: 3 rows, 2 truth clusters\n")


def test_none_values_show_as_a_dash():
    result = {
        "table": None, "rows": None, "truth_clusters": None, "current": None,
        "sweeps": [{"knob": None, "current": None, "points": [
            {"value": 1, "precision": None, "recall": None, "f1": None, "groups": None},
            {"value": None, "precision": 0.5}, {"value": 2, "precision": 0.5, "recall": None}]}],
        "histograms": [{"measure": None, "bins": [0, 1], "true": None, "false": [None, 3], "threshold": None},
                       {"measure": "empty", "bins": None}],
        "false_pairs": [{"a": None, "b": None, "distance": None, "similarity": None}],
        "missed_pairs": None,
    }
    page = render_eval_html(result)
    assert "<h1>dedup eval: –</h1>" in page and "<td>–</td>" in page
    assert _svgs(page, "sweep") == 1 and _svgs(page, "pr") == 1 and _svgs(page, "hist") == 1
    assert "no candidate pairs" in page and "Missed pairs" not in page
    text = render_eval_text(result)
    assert "precision –  recall –  f1 –" in text


def test_categorical_knob_values_are_ticks(result):
    result["sweeps"] = [{"knob": "tokenizer", "current": "jieba",
                         "points": [_point("jieba", 0.9, 0.9), _point("char-bigram", 0.8, 0.95)]}]
    page = render_eval_html(result)
    assert "text-anchor='middle'>char-bigram</text>" in page and "current: jieba" in page


def test_text_summary_aligns_each_sweep(result):
    text = render_eval_text(result)
    for sweep in result["sweeps"]:
        block = text.split(f"sweep {sweep['knob']} ")[1].split("\n\n")[0].splitlines()[1:]
        assert len(block) == 1 + len(sweep["points"])
        assert len({len(line) for line in block}) == 1        # right-aligned columns end together
        header = block[0]
        for name in ("precision", "recall", "f1", "groups"):
            end = header.index(name) + len(name)
            assert all(line[end - 1] != " " and (end == len(line) or line[end] == " ") for line in block)
    assert "  *      8      0.990   0.975  0.982     100" in text
    assert "12,345" in text


def test_text_summary_lists_the_first_ten_pairs(result):
    result["false_pairs"] = [dict(result["false_pairs"][0], a=f"k{i}") for i in range(12)]
    text = render_eval_text(result)
    assert "false pairs: 10 of 100 shown" in text  # 12 kept of the 12000 - 11900 in the run
    assert "k9 " in text and "k10" not in text
    assert "missed pairs: 1 of 200 shown\n" in text and "<script>" not in text.split("missed pairs")[1]


@pytest.mark.parametrize("lo, hi, count, min_step, ticks", [
    (0, 1, 5, 0, [0, 0.2, 0.4, 0.6, 0.8, 1.0]),
    (0.94, 1, 5, 0, [0.94, 0.95, 0.96, 0.97, 0.98, 0.99, 1.0]),
    (0.9, 1, 5, 0, [0.9, 0.92, 0.94, 0.96, 0.98, 1.0]),
    (0, 3.15, 5, 1, [0, 1, 2, 3]),
    (0, 1050, 5, 1, [0, 200, 400, 600, 800, 1000]),
    (2, 2, 5, 0, [2]),
])
def test_ticks_are_round_numbers(lo, hi, count, min_step, ticks):
    assert _ticks(lo, hi, count, min_step) == ticks
