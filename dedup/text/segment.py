r"""Chinese segmentation: jieba's words, computed by rjieba (jieba's Rust port) and corrected where it differs.

Two engines make the same tokens (``text.segmenter``): **jieba**, the reference, and **rjieba**, a
Rust port about ten times faster. ``auto`` (the default) takes rjieba when it is installed, else
jieba, and warns once. rjieba is held to jieba's output, not trusted for it. With the HMM on, rjieba
0.2.2 cuts otherwise in two ways, both outside the HMM's ideographs (issue 26,
``bench/results/jieba-s49.md``):

* Inside a run of characters the dictionary left one by one, jieba splits what is not an ideograph
  with ``finalseg.re_skip`` (``[a-zA-Z0-9]+(?:\.\d+)?%?``), rjieba keeps ASCII letters and digits
  joined by ``.``, ``-`` or ``_`` as one word (``c.b``, ``a-b``, ``33.6k`` for jieba's ``c``
  ``.`` ``b``, ..., ``33.6`` ``k``). Its pieces are always unions of jieba's, so each such token, unless
  one of the five dictionary words without an ideograph (``c++``, ``AT&T``), is split again with
  ``re_skip``: jieba's words, without loading jieba.
* rjieba takes the ideographs outside jieba's ``\u4E00-\u9FD5`` (extension A, ``\u9FD6-\u9FFF``,
  compatibility and astral ones) into its blocks, and keeps a run of them as one word where jieba
  gives each alone (as it does every character outside its blocks). The text is cut at them first.

``tests/test_segment_engines.py`` runs both engines on the People's Daily corpus of
``bench/datasets/heldout``, in both HMM modes, and on generated text, and fails on any difference.

Each engine is loaded once per process (jieba's dictionary costs about half a second, rjieba's
0.1 s). jieba's cache file lives in dedup's own cache directory (``$DEDUP_CACHE_DIR``, else
``$XDG_CACHE_HOME/dedup``, else ``~/.cache/dedup``), not the shared temp directory, and jieba writes
it through a temporary file and an atomic rename, so parallel runs do not race on it.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import importlib.util
import os
import re
import sys
import tempfile
import threading
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import machinery, metadata, resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..config.model import SEGMENTERS
from ..errors import ConfigError
from .normalize import normalize_text
from .token_table import TokenTable

if TYPE_CHECKING:
    import jieba

    from ..config import TextConfig

log = logging.getLogger(__name__)
_LOCK = threading.Lock()
_TOKENIZERS: dict[str, "jieba.Tokenizer"] = {}
# The characters near which rjieba's HMM cut can differ from jieba's (the module docstring): the
# ASCII joiners jieba keeps inside a block, and the ideographs only rjieba keeps there.
_WIDE_HAN = ("\u3400-\u4dbf\u9fd6-\u9fff\uf900-\ufaff\U00020000-\U0002a6df\U0002a700-\U0002ebef"
             "\U0002f800-\U0002fa1f")
_SUSPECT = re.compile(f"[+#&._%\\-{_WIDE_HAN}]")
_WIDE_SPLIT = re.compile(f"([{_WIDE_HAN}])")
_JOINER = re.compile(r"[+#&._%\-]")
_ASCII_JOIN = re.compile(r"[a-zA-Z0-9][+#&._%\-]|[+#&._%\-][a-zA-Z0-9]")
_ASCII_RUN = re.compile(r"[a-zA-Z0-9+#&._%\-]+")
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?%?")
_HAN = re.compile("[\u4e00-\u9fd5]")  # jieba.finalseg.re_han's class: what the HMM cuts
_SKIP = re.compile(r"([a-zA-Z0-9]+(?:\.\d+)?%?)")  # jieba.finalseg.re_skip, verbatim
# The words of jieba's (and rjieba's) dictionary without an ideograph: a step of the route, never re-split.
_ASCII_WORDS = frozenset({"AT&T", "c#", "C#", "c++", "C++"})


def _may_differ(text: str) -> bool:
    """Whether rjieba's HMM words of ``text`` may join what jieba splits: a run of ASCII letters,
    digits and joiners holding a join (a letter or digit beside a joiner) that is not a plain number
    (``3.5``, ``12%``, which both keep whole). rjieba's joined pieces are unions of ``re_skip``'s, so a
    text without such a run has nothing to split again; the test spares the token loop the news texts
    with only numbers. A join lies inside one run, so the runs alone tell (a one-class scan first)."""
    return _JOINER.search(text) is not None and any(
        _ASCII_JOIN.search(run) and not _NUMBER.fullmatch(run) for run in _ASCII_RUN.findall(text))


def forget() -> None:
    """Drop dedup's rjieba instance (its dictionary, some 25 MB) and jieba's tokenizers: made again
    when next asked for (dedup.text.memos)."""
    _rjieba.cache_clear()
    cutter.cache_clear()
    _TOKENIZERS.clear()


def rjieba_installed() -> bool:
    """Whether rjieba is installed (it ships wheels for the common platforms only). Found, not
    imported: its import loads a dictionary (about 30 MB) into every process that asks, the run's
    own and the children it forks, which never segment (issue 26, bench/results/mem200k-s44.md)."""
    try:
        return importlib.util.find_spec("rjieba") is not None
    except (ImportError, ValueError):
        return False


@functools.cache
def resolve_engine(name: str) -> str:
    """The engine ``text.segmenter`` names: ``auto`` is rjieba when installed, else jieba (warned once)."""
    if name not in SEGMENTERS:
        raise ConfigError(f"text.segmenter: must be {', '.join(SEGMENTERS[:-1])} or {SEGMENTERS[-1]}, not {name!r}")
    if name == "jieba":
        return name
    if rjieba_installed():
        return "rjieba"
    if name == "rjieba":
        raise ConfigError("text.segmenter: rjieba is not installed here (pip install rjieba); "
                          "auto uses it when it is and jieba when not")
    log.warning("rjieba is not installed here: segmenting with jieba "
                "(the same words, about 10x slower; text.segmenter: jieba says that is meant)")
    return "jieba"


def cache_dir() -> Path:
    """Where dedup keeps jieba's dictionary cache; falls back to a per-user temp directory.

    Resolved once per environment (the directory is made and checked on the first call only):
    the tokenizer asks for it on every text."""
    return _cache_dir(os.environ.get("DEDUP_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))


@functools.cache
def _cache_dir(env: str | None, xdg: str | None, home: str | None) -> Path:
    if env:
        candidates = [Path(env)]
    else:
        candidates = [Path(xdg) / "dedup"] if xdg else []
        candidates.append((Path(home) if home else Path.home()) / ".cache" / "dedup")
    candidates.append(Path(tempfile.gettempdir()) / f"dedup-{os.getuid() if hasattr(os, 'getuid') else 'user'}")
    for c in candidates:
        try:
            c.mkdir(parents=True, exist_ok=True)
            if os.access(c, os.W_OK):
                return c
        except OSError:
            continue
    return Path(tempfile.gettempdir())


@functools.cache
def _jieba():
    """jieba, imported once a process segments with it: its import takes pkg_resources along
    (about 14 MB in every process of a run, which the run's own and its children never use)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


def tokenizer() -> "jieba.Tokenizer":
    """The process-wide jieba tokenizer, initialised on first use."""
    directory = str(cache_dir())
    tok = _TOKENIZERS.get(directory)
    if tok is not None:
        return tok
    with _LOCK:
        tok = _TOKENIZERS.get(directory)
        if tok is None:
            tok = _jieba().Tokenizer()
            tok.tmp_dir = directory
            tok.initialize()
            _TOKENIZERS[directory] = tok
        return tok


@functools.cache
def _rjieba() -> object:
    """dedup's own rjieba instance (the module's shared one could be changed by add_word elsewhere)."""
    return _rjieba_class()()


def _rjieba_class() -> type:
    """rjieba's ``Jieba`` from its compiled module, loaded without the package's ``__init__``, which
    makes a shared instance with a dictionary of its own (about 25 MB a text worker, unused here).
    The module is registered as ``rjieba.rjieba``, so a later ``import rjieba`` takes it as it is."""
    if "rjieba" not in sys.modules:
        try:
            spec = importlib.util.find_spec("rjieba")
            folder = Path((spec.submodule_search_locations or [""])[0]) if spec is not None else None
            found = [p for p in folder.glob("rjieba.*") if p.name.endswith(tuple(machinery.EXTENSION_SUFFIXES))] if folder else []
            if found:
                module = sys.modules.get("rjieba.rjieba")
                if module is None:
                    ext = importlib.util.spec_from_file_location("rjieba.rjieba", found[0])
                    assert ext is not None and ext.loader is not None
                    module = importlib.util.module_from_spec(ext)
                    ext.loader.exec_module(module)
                    sys.modules["rjieba.rjieba"] = module
                return module.Jieba
        except (ImportError, OSError, AssertionError):
            pass
    import rjieba

    return rjieba.Jieba


def _cut_rjieba_hmm(text: str) -> list[str]:
    """jieba's HMM words of ``text``: rjieba's, corrected where it cuts otherwise (module docstring)."""
    if _SUSPECT.search(text) is None:  # one scan: most texts hold neither a joiner nor a rare ideograph
        return _rjieba().cut(text, True)
    if _WIDE_SPLIT.search(text) is None:
        return _cut_hmm_joined(text)
    out: list[str] = []
    for i, piece in enumerate(_WIDE_SPLIT.split(text)):  # odd places: the rare ideographs, each a word
        if i % 2:
            out.append(piece)
        elif piece:
            out += _cut_hmm_joined(piece)
    return out


def _cut_hmm_joined(text: str) -> list[str]:
    """jieba's HMM words of a text without the rare ideographs: rjieba's, its joins split again."""
    tokens = _rjieba().cut(text, True)
    return _split_joined(tokens) if _may_differ(text) else tokens


def _split_joined(tokens: list[str]) -> list[str]:
    """rjieba's HMM tokens with each one it joined against jieba's ``re_skip`` split as jieba splits it."""
    out: list[str] = []
    for token in tokens:
        if len(token) > 1 and _JOINER.search(token) and token not in _ASCII_WORDS and not _HAN.search(token):
            out += filter(None, _SKIP.split(token))
        else:
            out.append(token)
    return out


@functools.cache
def cutter(engine: str, hmm: bool) -> Callable[[str], Iterable[str]]:
    """The function giving jieba's words of a text with this engine (``jieba`` or ``rjieba``)."""
    if engine == "jieba":
        return lambda text: tokenizer().cut(text, HMM=hmm)
    if hmm:
        return _cut_rjieba_hmm
    rj = _rjieba()
    return lambda text: rj.cut(text, False)


def engine_version(engine: str, hmm: bool) -> str:
    """What makes the words: the engine and its version (rjieba with the HMM is corrected to jieba's
    splitting, so jieba's version is named too: the stamp is the one stores made before)."""
    if engine == "jieba":
        return f"jieba {metadata.version('jieba')}"
    rj = f"rjieba {metadata.version('rjieba')}"
    return f"{rj} + jieba {metadata.version('jieba')}" if hmm else rj


def _is_noise(token: str) -> bool:
    """Whitespace, punctuation and symbols carry no meaning for duplicates."""
    return all(unicodedata.category(ch)[0] in "PSZC" for ch in token)


def load_stopwords(path: Path | None = None) -> frozenset[str]:
    """Stopwords from a file (one a line, ``#`` comments), normalised like the text; None = bundled list."""
    if path is None:
        text = resources.files("dedup.text").joinpath("data/stopwords-zh.txt").read_text(encoding="utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    words = (normalize_text(line) for line in text.splitlines())
    return frozenset(w for w in words if w and not w.startswith("#"))


@dataclass(frozen=True)
class Segmenter:
    """Turns normalised text into the terms that become SimHash features."""

    stopwords: frozenset[str]
    hmm: bool = True
    engine: str = "auto"  # text.segmenter; jieba or rjieba once constructed
    # Tokens repeat across rows, so each is judged once (a measured 25 % of the time spent beside
    # jieba went to judging them again): the tokens judged, and those of them dropped.
    _seen: set = field(default_factory=set, compare=False, repr=False)
    _dropped: set = field(default_factory=set, compare=False, repr=False)
    _tables: dict = field(default_factory=dict, compare=False, repr=False)  # thread -> its TokenTable

    def __post_init__(self) -> None:
        object.__setattr__(self, "engine", resolve_engine(self.engine))

    @classmethod
    def of(cls, text: "TextConfig") -> "Segmenter":
        """The segmenter the ``text`` section asks for."""
        return cls(load_stopwords(text.stopwords), hmm=text.hmm, engine=text.segmenter)

    def tokens(self, text: str) -> list[str]:
        """jieba's words of ``text`` (already normalised), all of them: what ``terms`` filters."""
        if not text:
            return []
        tokens = cutter(self.engine, self.hmm)(text)
        return tokens if isinstance(tokens, list) else list(tokens)

    def dropped(self, token: str) -> bool:
        """Whether ``terms`` leaves ``token`` out (a stopword, or punctuation and spaces only)."""
        return token in self.stopwords or _is_noise(token)

    def forget(self) -> None:
        """Empty the tokens remembered and judged (dedup.text.memos)."""
        self._tables.clear()
        self._seen.clear()
        self._dropped.clear()

    def numbered(self) -> "TokenTable":
        """This thread's table of the tokens met (dedup.text.batch_terms), emptied when full."""
        table = self._tables.get(threading.get_ident())
        if table is None or len(table) >= TokenTable.LIMIT:
            table = self._tables[threading.get_ident()] = TokenTable(self.dropped)
        return table

    def terms(self, text: str) -> list[str]:
        """jieba's words of ``text`` (already normalised), without stopwords, punctuation or spaces.
        The plain per-row way: runs judge a batch's tokens at once (dedup.text.batch_terms)."""
        tokens = self.tokens(text)
        if not tokens:
            return []
        new = set(tokens) - self._seen  # set ops in C; each token's hash is kept for the filter below (issue 26)
        if new:
            self._dropped.update(filter(self.dropped, new))
            self._seen.update(new)  # after: a token seen is judged (threads may share a segmenter)
        dropped = self._dropped
        return [t for t in tokens if t not in dropped]

    def version(self) -> dict:
        """What determines this segmenter's output (part of the fingerprint version stamp)."""
        digest = hashlib.sha1("\n".join(sorted(self.stopwords)).encode("utf-8")).hexdigest()[:12]
        return {"segmenter": engine_version(self.engine, self.hmm), "hmm": self.hmm, "stopwords": digest}
