import textwrap

import pytest

from dedup.config import load_config, parse_config, expand_env
from dedup.errors import ConfigError
from dedup.runs.recipe import Recipe

GOOD = {
    "source": {"url": "sqlite:///petitions.db"},
    "store": {"url": "sqlite:///dedup-store.db"},
    "simhash": {"max_distance": 3},
    "tables": {"petitions": {"key": "id", "watermark": "updated_at",
                             "fields": {"name": "short", "content": "text", "phone": {"kind": "short", "weight": 3}}}},
}


def test_good_config(tmp_path):
    cfg = parse_config(GOOD, base_dir=tmp_path)
    t = cfg.table("petitions")
    assert [(f.name, f.kind, f.weight) for f in t.fields] == [
        ("name", "short", 2.0), ("content", "text", 1.0), ("phone", "short", 3.0)]
    assert cfg.table(None) is t  # the only table
    assert t.display == ("name", "phone", "content")
    assert Recipe.of(cfg, t).layout.widths == (16, 16, 16, 16)
    assert cfg.source_url == f"sqlite:///{tmp_path}/petitions.db"  # relative to the config file


def test_every_problem_reported_at_once_with_key_paths():
    bad = {
        "source": {"url": "sqlite://", "colour": "red"},
        "simhash": {"max_distance": 9, "blocks": 10, "sketch_bits": 100, "min_similarity": 2},
        "tables": {"petitions": {"key": "id", "fields": {"name": "shrot", "content": {"kind": "text", "weight": -1}}}},
        "extra": 1,
    }
    with pytest.raises(ConfigError) as e:
        parse_config(bad)
    msg = str(e.value)
    for part in ("source.colour: unknown key", "simhash.blocks: 10 blocks for distance 9 give table keys of 6 bits",
                     "simhash.sketch_bits: must be one of 64, 128, 192, 256",
                     "simhash.min_similarity: must be a number from -1 to 1",
                 "tables.petitions.fields.name: unknown kind 'shrot' (use short, text or chars)",
                 "tables.petitions.fields.content.weight: must be a number greater than 0",
                 "extra: unknown key"):
        assert part in msg
    assert "\n" not in msg


def test_match_section_problems_are_reported_at_once_with_key_paths():
    bad = {"source": {"url": "sqlite://"},
           "match": {"method": "lsh", "threshold": 1.5, "identity_threshold": True, "short_chars": -1,
                     "record_threshold": "high", "anchors": 0, "colour": 1},
           "tables": {"t": {"key": "id", "fields": {"content": {"kind": "text", "match": "body"}}}}}
    with pytest.raises(ConfigError) as e:
        parse_config(bad)
    msg = str(e.value)
    for part in ("match.method: must be one of minhash, simhash", "match.threshold: must be a number from 0 to 1",
                 "match.identity_threshold: must be a number from 0 to 1", "match.short_chars: must be at least 0",
                 "match.record_threshold: must be a number from 0 to 1", "match.colour: unknown key",
                 "match.anchors: must be at least 1",
                 "tables.t.fields.content.match: must be one of content, identity, none"):
        assert part in msg


def test_match_section_values_and_field_roles():
    cfg = parse_config({"source": {"url": "sqlite://"},
                        "match": {"threshold": 0.8, "short_chars": 0, "record_threshold": 0.6},
                        "tables": {"t": {"key": "id", "fields": {"name": "short", "body": "text",
                                                                 "note": {"kind": "text", "match": "none"}}}}})
    assert (cfg.match.method, cfg.match.threshold, cfg.match.short_chars, cfg.match.record_threshold) == \
        ("minhash", 0.8, 0, 0.6)
    assert [f.role for f in cfg.table("t").fields] == ["identity", "content", "none"]
    assert cfg.match.anchors == 16  # the default
    for given, read in ((None, None), (5, 5)):
        assert parse_config({"source": {"url": "sqlite://"}, "match": {"anchors": given},
                             "tables": {"t": {"key": "id", "fields": {"body": "text"}}}}).match.anchors == read


@pytest.mark.parametrize("data, fragment", [
    ({}, "source: required"),
    ({"source": {"url": "x"}}, "tables: required"),
    ({"source": {"url": "x"}, "tables": {"t": {"fields": {"a": "short"}}}}, "tables.t.key: required"),
    ({"source": {"url": "x"}, "tables": {"t": {"key": "id"}}}, "tables.t.fields: required"),
    ({"source": {"url": "x"}, "simhash": {"max_distance": "3"}, "tables": {"t": {"key": "id", "fields": {"a": "text"}}}},
     "simhash.max_distance: must be a whole number"),
    ({"source": {"url": 5}, "tables": {"t": {"key": "id", "fields": {"a": "text"}}}}, "source.url: must be a string"),
    ([1, 2], "must be a mapping"),
])
def test_config_errors(data, fragment):
    with pytest.raises(ConfigError) as e:
        parse_config(data)
    assert fragment in str(e.value)


def test_env_expansion(tmp_path, monkeypatch):
    monkeypatch.setenv("DB_PASS", "s3cret")
    p = tmp_path / "dedup.yaml"
    p.write_text(textwrap.dedent("""
        source: {url: "postgresql://u:${DB_PASS}@h/db"}
        store: {url: "${STORE_URL:-sqlite:///s.db}"}
        tables: {t: {key: id, fields: {a: text}}}
    """), encoding="utf-8")
    cfg = load_config(p)
    assert cfg.source_url == "postgresql://u:s3cret@h/db"
    assert cfg.store_url == f"sqlite:///{tmp_path}/s.db"


def test_unset_env_variable_is_named():
    with pytest.raises(ConfigError, match="NOPE_NOT_SET"):
        expand_env("url: ${NOPE_NOT_SET}", environ={})


def test_missing_file_and_bad_yaml(tmp_path):
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path / "nope.yaml")
    p = tmp_path / "bad.yaml"
    p.write_text("source: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(p)


def test_unknown_table_is_named():
    cfg = parse_config(GOOD)
    with pytest.raises(ConfigError, match="table 'other' is not in the config"):
        cfg.table("other")


def test_date_column_and_labels():
    """A table's date column and plain labels are read as given; left out, none and no labels."""
    t = dict(GOOD["tables"]["petitions"], date_column="filed_at", labels={"name": " 姓名 ", "phone": "电话", 3: 7})
    table = parse_config(dict(GOOD, tables={"petitions": t})).table("petitions")
    assert table.date_column == "filed_at" and "filed_at" in table.columns
    assert table.labels == {"name": "姓名", "phone": "电话", "3": "7"}
    assert (table.label("name"), table.label("content")) == ("姓名", "content")
    plain = parse_config(GOOD).table("petitions")
    assert plain.date_column is None and plain.labels == {} and plain.label("name") == "name"


def test_date_column_and_labels_problems_are_reported_with_key_paths():
    t = dict(GOOD["tables"]["petitions"], date_column=["filed_at"], labels={"name": "", "phone": ["x"]})
    with pytest.raises(ConfigError) as e:
        parse_config(dict(GOOD, tables={"petitions": t}))
    msg = str(e.value)
    for part in ("tables.petitions.date_column: must be a column name",
                 "tables.petitions.labels.name: must be a label (text)",
                 "tables.petitions.labels.phone: must be a label (text)"):
        assert part in msg
    t = dict(GOOD["tables"]["petitions"], labels=["name"])
    with pytest.raises(ConfigError, match="tables.petitions.labels: must be a mapping of column name to label"):
        parse_config(dict(GOOD, tables={"petitions": t}))
