"""The configuration as typed objects, with the defaults; dedup.config.parse builds them from YAML.

Plain data: what a table's recipe is made of (block layout, verifier, version stamp) is derived
from these by dedup.runs.recipe, once per run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from ..errors import ConfigError

DEFAULT_CONFIG_NAME = "dedup.yaml"
FIELD_KINDS = {"short": 2.0, "text": 1.0, "chars": 1.0}  # kind -> default weight (text/chars: x term frequency)
DEFAULT_NGRAM = 2  # characters per n-gram of a ``chars`` field
SKETCH_BITS = (64, 128, 192, 256)
# The defaults are the recipe that measured best (bench/quality/bench_quality.py); PAPER_RECIPE is the seed paper's.
DEFAULT_MAX_DISTANCE = 12
DEFAULT_SKETCH_BITS = 256
DEFAULT_MIN_SIMILARITY = 0.84
DEFAULT_IDF = False
DEFAULT_TF = "log"
TF_MODES = ("log", "raw")
SEGMENTERS = ("auto", "jieba", "rjieba")  # text.segmenter: auto = rjieba when installed, else jieba
DEFAULT_MIN_FIELD_SIMILARITY = 0.75
FINGERPRINTS = ("auto", "row", "fields")
MATCH_METHODS = ("minhash", "simhash")  # how candidates are found and verified (dedup.runs.recipe)
DIGIT_MODES = ("keep", "fold")  # match.digits
MATCH_ROLES = ("content", "identity", "none")  # a field's part in the minhash recipe
PAPER_RECIPE = {"match": {"method": "simhash"},
                "simhash": {"max_distance": 3, "sketch_bits": 64, "min_similarity": None},
                "text": {"idf": False, "tf": "raw"},
                "table": {"fingerprint": "row"}}
DEFAULT_BATCH_SIZE = 1000
DEFAULT_MAX_CELL_CHARS = 100_000  # a longer text cell is cut to this many characters when read (jieba: ~60k chars/s)
DEFAULT_BUCKET_SIZE = 50_000  # entries per MongoDB block document (16 MB limit: ~40 bytes an entry)
DEFAULT_STORE_URL = "sqlite:///dedup-store.db"
# Every key the config accepts, by section (config.example.yaml documents each; a test checks it).
KEYS = {
    "": {"source", "store", "match", "groups", "simhash", "tables", "text"},
    "groups": {"clustering", "warn_size", "warn_growth"},
    "match": {"method", "anchors", "threshold", "identity_threshold", "identity_rare_threshold", "identity_rare_rows",
              "short_chars", "short_threshold",
              "short_identity_threshold", "record_threshold", "common_share", "common_rows", "common_floor", "digits",
              "distinct_threshold", "distinct_floor", "distinct_shared", "distinct_share",
              "numbers_floor", "numbers_least", "numbers_share", "numbers_against", "numbers_sure",
              "numbers_brief_chars", "numbers_brief_against", "places_against_chars", "confirm_values", "confirm_margin"},
    "source": {"url", "batch_size", "max_cell_chars"},
    "store": {"url", "bucket_size"},
    "simhash": {"max_distance", "blocks", "sketch_bits", "min_similarity", "min_field_similarity"},
    "text": {"stopwords", "hmm", "segmenter", "workers", "idf", "tf"},
    "tables.<name>": {"key", "watermark", "watermark_lookback", "reconcile_every", "fields", "display", "fingerprint",
                      "date_column", "labels"},
    "tables.<name>.fields.<column>": {"kind", "weight", "n", "match"},
}


@dataclass(frozen=True)
class FieldSpec:
    """One source column that contributes features: ``short`` (whole value), ``text`` (jieba terms)
    or ``chars`` (character n-grams, robust to typos in names, addresses and numbers)."""

    name: str
    kind: str
    weight: float
    n: int | None = None  # chars: characters per n-gram
    match: str | None = None  # content, identity or none; None: by kind (text: content, others: identity)

    @property
    def role(self) -> str:
        """The field's part in the minhash recipe: its text is shingled (content), its whole value
        tells the same person (identity), or neither (none)."""
        return self.match or ("content" if self.kind == "text" else "identity")


@dataclass(frozen=True)
class TableConfig:
    name: str
    key: str
    fields: tuple[FieldSpec, ...]
    watermark: str | None = None
    display: tuple[str, ...] = ()
    fingerprint: str = "row"  # row: one SimHash of all features; fields: each field its own block
    max_cell_chars: int = DEFAULT_MAX_CELL_CHARS  # source.max_cell_chars: longer field values are cut when read
    watermark_lookback: object = None  # timedelta or number (dedup.config.lookback); None: the default by type
    reconcile_every: int = 0  # reconcile deletes every N-th incremental run; 0: only with --reconcile
    date_column: str | None = None  # when a row was filed: shown and ordered by in reports
    labels: dict[str, str] = field(default_factory=dict, hash=False)  # column -> what a report calls it

    def label(self, column: str) -> str:
        """The plain label of ``column`` (the ``labels`` map), else its name."""
        return self.labels.get(column, column)

    @property
    def by_field(self) -> bool:
        return self.fingerprint == "fields"

    @property
    def columns(self) -> tuple[str, ...]:
        """Every source column the run reads, key first, without repeats."""
        cols = [self.key, *(f.name for f in self.fields)]
        if self.watermark:
            cols.append(self.watermark)
        cols.extend(self.display)
        if self.date_column:
            cols.append(self.date_column)
        return tuple(dict.fromkeys(cols))


@dataclass(frozen=True)
class TextConfig:
    """How long text is segmented: the stopword file (None = bundled list), jieba's HMM switch, the
    engine that computes jieba's words, and how many processes segment and fingerprint rows ("auto" =
    one per core)."""

    stopwords: Path | None = None
    hmm: bool = True
    segmenter: str = "auto"  # SEGMENTERS: rjieba (same words, faster) when installed, else jieba
    workers: int | str = "auto"
    idf: bool = DEFAULT_IDF  # weight terms and n-grams by inverse document frequency (learned by `full`)
    tf: str = DEFAULT_TF  # a term counted n times in a field weighs n (raw) or 1 + ln n (log)


@dataclass(frozen=True)
class MatchConfig:
    """The minhash recipe's thresholds (dedup.index.bands, dedup.index.records), or the simhash one."""

    method: str = "minhash"
    threshold: float = 0.75  # long contents: estimated Jaccard of their 3-gram sets
    identity_threshold: float = 0.45  # long contents with an identity field equal
    identity_rare_threshold: float = 0.35  # ... whose value is rare (rule content_rare_identity; >= identity_threshold: off)
    identity_rare_rows: int = 5  # ... an identity value in at most this many rows of the full run is rare (s39)
    short_chars: int = 60  # a content shorter than this (cleaned) is short
    short_threshold: float = 0.95
    short_identity_threshold: float = 0.20
    record_threshold: float | None = None  # record tables' weighted field similarity; None: the scheme's default
    anchors: int | None = 16  # text tables: a key's rows are compared with its first this many (None: all)
    common_share: float = 0.002  # text tables: a content feature in more than this share of rows weighs less
    common_rows: int = 10  # ... and in more than this many rows (dedup.text.rarity)
    common_floor: float = 0.3  # the least a common content feature weighs (a feature alone in its row: 1)
    digits: str = "keep"  # text tables: digit runs inside the 3-grams as written (keep) or folded to 0 (fold)
    distinct_threshold: float = 0.3  # long contents under the bars: their distinctive features' estimated Jaccard
    distinct_floor: float = 0.75  # ... when the contents' estimated Jaccard is at least this (0.75 = threshold: off)
    distinct_shared: int = 4  # ... and they share about this many distinctive features
    distinct_share: float = 0.7  # ... and each row's distinctive features are at most this share of its length
    numbers_floor: float = 0.45  # long contents under the bars, their numbers alike, when J is at least this (threshold: off)
    numbers_least: int = 4  # ... both naming at least this many numbers (a digit run with its unit)
    numbers_share: float = 0.8  # ... and sharing at least this share of the fewer
    numbers_against: float = 0.5  # long contents under numbers_sure sharing less of their numbers than this: not kept (0: never)
    numbers_sure: float = 0.9  # ... (the numbers count against a pair only under this J)
    numbers_brief_chars: int = 80  # long contents, the shorter under this many characters (0: off) ... (tuning22_brief_sweep, i22-places2)
    numbers_brief_against: float = 0.75  # ... under numbers_sure sharing less of their numbers than this (one of 4 may differ): not kept
    places_against_chars: int = 250  # long contents, the shorter under this, naming other places, under numbers_sure: not kept (0: off; s37; 200 until s44)
    confirm_values: int = 64  # long contents kept on the content bar alone, under it + confirm_margin: kept only if this many more agree too (as 4-bit codes)
    confirm_margin: float = 0.0  # ... (0: off, no codes stored; 0.01, the tuning choice, lost held-out recall: bench/results/forms10-s47.md)


CLUSTERINGS = ("star", "components")  # dedup.index.clusters; components: every chain of pairs is one group


@dataclass(frozen=True)
class GroupsConfig:
    """How verified pairs become groups (dedup.index.clusters), and the sizes that are warned of."""

    clustering: str = "star"  # a row joins a group when it matches the group's first row
    warn_size: int = 100  # a run warns of a group it makes or grows past this many rows
    warn_growth: float = 2.0  # ... and when the largest group is this many times the last run's


@dataclass(frozen=True)
class Config:
    source_url: str
    store_url: str
    max_distance: int = DEFAULT_MAX_DISTANCE
    blocks: int | None = None  # None: as many as give every block table a useful key (dedup.index.blocks)
    sketch_bits: int = DEFAULT_SKETCH_BITS
    min_similarity: float | None = DEFAULT_MIN_SIMILARITY
    min_field_similarity: float = DEFAULT_MIN_FIELD_SIMILARITY
    batch_size: int = DEFAULT_BATCH_SIZE
    bucket_size: int = DEFAULT_BUCKET_SIZE
    tables: Mapping[str, TableConfig] = field(default_factory=dict)
    text: TextConfig = TextConfig()
    match: MatchConfig = MatchConfig()
    groups: GroupsConfig = GroupsConfig()
    path: Path | None = None

    def table(self, name: str | None) -> TableConfig:
        """The named table, or the only one when the config has a single table."""
        if name is None:
            if len(self.tables) == 1:
                return next(iter(self.tables.values()))
            raise ConfigError(f"choose a table with --table (configured: {', '.join(self.tables)})")
        try:
            return self.tables[name]
        except KeyError:
            raise ConfigError(
                f"table {name!r} is not in the config (configured: {', '.join(self.tables) or 'none'})"
            ) from None
