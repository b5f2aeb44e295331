"""The docs stay true: the README's commands, the example config, and CI run the same things; the
README stays a front page and the site's pages name every command."""

import re
from pathlib import Path

import yaml

from dedup.cli import main
from dedup.config import KEYS, parse_config
from dedup.config.model import MatchConfig

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
README_LIMIT = 12_000  # bytes: the front page says what dedup is and links to the site (issue 25)
SCREENSHOT_LIMIT = 150_000  # bytes


def readme_block(heading: str) -> str:
    section = README.split(f"## {heading}", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1).strip()


def test_ci_runs_the_readme_test_command():
    command = readme_block("Run the tests")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci.splitlines()


def test_readme_install_command_runs_the_demo():
    assert readme_block("Try it") == "python -m pip install . && dedup demo"


def test_example_config_is_valid_and_documents_every_key(tmp_path):
    text = (ROOT / "config.example.yaml").read_text(encoding="utf-8")
    cfg = parse_config(yaml.safe_load(text), base_dir=tmp_path)
    assert cfg.table("petitions").watermark == "updated_at"
    for section, keys in KEYS.items():
        for key in keys:
            assert re.search(rf"^\s*#?\s*{key}:|[{{,]\s*{key}:", text, re.M), f"{section}.{key} undocumented"


def test_example_config_states_the_shipped_match_defaults():
    """A user who copies config.example.yaml gets what ships (a default changed in the code and
    not in the example once left a rule off for them)."""
    match = yaml.safe_load((ROOT / "config.example.yaml").read_text(encoding="utf-8"))["match"]
    defaults = MatchConfig()
    assert {k: v for k, v in match.items() if getattr(defaults, k, v) != v} == {}


def test_readme_is_a_front_page():
    size = len(README.encode("utf-8"))
    assert size <= README_LIMIT, f"README.md is {size} bytes (at most {README_LIMIT}): move the detail into docs/"


def test_readme_screenshot_is_there_and_small():
    image = re.search(r"!\[[^\]]*\]\(([^)]+\.png)\)", README).group(1)
    assert image.startswith("docs/"), image
    size = (ROOT / image).stat().st_size
    assert size < SCREENSHOT_LIMIT, f"{image} is {size} bytes (under {SCREENSHOT_LIMIT})"


def test_readme_and_ci_run_every_test_the_default_command_leaves_out():
    """What pyproject's addopts deselects ("not faults and not slow") is what README and .ci/run
    name as the second command ("faults or slow"): CI still runs every test."""
    addopts = re.search(r"addopts = \"[^\"]*-m '([^']+)'", (ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    left_out = re.findall(r"not (\w+)", addopts.group(1))
    assert left_out, addopts.group(1)
    command = f"python -m pytest -m '{' or '.join(left_out)}'"
    assert f"`{command}`" in README
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_readme_links_resolve():
    for target in re.findall(r"\]\(((?:docs/)[^)#]+)(?:#[^)]*)?\)", README):
        assert (ROOT / target).is_file(), target


def _invocation() -> re.Pattern:
    """``dedup``, then the group's own options (``-c FILE``, ``-v``) as main declares them, then the
    word in the command's place."""
    flags = [o for p in main.params if p.is_flag for o in p.opts]
    valued = [o for p in main.params if not p.is_flag for o in p.opts]
    opt = "|".join([*(re.escape(f) for f in flags), *(rf"{re.escape(o)}(?:=|\s+)\S+" for o in valued)])
    return re.compile(rf"(?<![\w/.-])dedup(?:\s+(?:{opt}))*\s+([a-z][a-z-]*)\b")


def commands_shown(texts) -> set[str]:
    """The words that stand where a command goes in the ``dedup ...`` lines of these texts' code
    (fenced blocks and inline spans: prose such as "dedup is" names no command)."""
    code = [c for text in texts for c in re.findall(r"```.*?```|`[^`\n]+`", text, re.S)]
    return {m.group(1) for c in code for m in _invocation().finditer(c)}


def test_commands_shown_reads_the_command_word_not_any_word_on_the_line():
    text = "Run `dedup -c demo/dedup.yaml --verbose full --table petitions` (the store and its rows)\n" \
           "then `dedup --config=x.yaml report -f json`; see dedup/store/sql.py and dedup's docs."
    assert commands_shown([text]) == {"full", "report"}


def test_every_command_is_in_the_written_docs():
    """Each command is shown in use somewhere a reader goes (README or a guide), not only in the
    generated reference; a command no page shows (a made-up one here) is caught."""
    pages = [README] + [p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md"))
                        if p != DOCS / "reference" / "cli.md"]
    shown = commands_shown(pages)
    assert set(main.commands) - shown == set()
    for made_up in ("store", "rows", "frobnicate"):
        assert made_up not in shown


def test_ci_builds_the_docs_strictly():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pip install --quiet -e '.[docs]'" in ci
    assert re.search(r"^\S*\s*mkdocs build --strict --site-dir", ci, re.M)
