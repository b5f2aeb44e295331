"""The docs stay true: the README's commands, the example config, and CI run the same things."""

import re
from pathlib import Path

import yaml

from dedup.cli import main
from dedup.config import KEYS, parse_config

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


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


def test_every_command_is_in_the_readme():
    for name in main.commands:
        assert re.search(rf"\bdedup\b[^\n]*\b{name}\b", README), name
