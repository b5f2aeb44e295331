"""`dedup demo`: a sample petitions database, its config and truth file, ready for a full run."""

from __future__ import annotations

from pathlib import Path

from ..output_file import write_whole
from .generator import generate_petitions, write_sample_db, write_truth_csv

DEMO_CONFIG = """\
# Written by `dedup demo`. Paths are relative to this file.
source:
  url: "sqlite:///petitions.db"
store:
  url: "sqlite:///dedup-store.db"
match:                     # the defaults, written out (config.example.yaml explains them)
  method: minhash          # 64 MinHash values of each content's 3-grams; at most 16 keys a row
  threshold: 0.75          # a pair is a duplicate at estimated Jaccard 0.75,
  identity_threshold: 0.45 # or 0.45 when name, phone or address is equal
text:
  idf: false
  tf: log                  # a term n times in a field weighs 1 + ln n
tables:
  petitions:
    key: id
    watermark: updated_at
    fields:
      name: short
      phone: short
      address: short
      title: text
      content: text
    display: [name, phone, title, content]
    date_column: updated_at  # reports show when each row was filed, earliest first
    labels: {name: 姓名, phone: 电话, address: 地址, title: 标题, content: 内容, updated_at: 登记时间}
"""


def prepare_demo(directory: Path, rows: int = 2000, seed: int = 42) -> Path:
    """Write petitions.db, truth.csv and dedup.yaml into ``directory``; returns the config's path."""
    directory.mkdir(parents=True, exist_ok=True)
    sample = generate_petitions(rows, seed=seed)
    write_sample_db(f"sqlite:///{(directory / 'petitions.db').resolve()}", sample)
    write_truth_csv(directory / "truth.csv", sample)
    config = directory / "dedup.yaml"
    write_whole(config, DEMO_CONFIG)
    return config
