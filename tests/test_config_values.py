"""Config values stay values (issue 27, item 7): ``${ENV}`` is filled in after the YAML is parsed, so
quotes, backslashes, spaces and YAML syntax in a variable stay in the value; a password is masked in
every error whatever the URL's shape (no ``@host``, spaces, a URL a driver cannot parse)."""

import textwrap

import pytest
from click.testing import CliRunner

from dedup.cli import main
from dedup.config import load_config
from dedup.db.masking import forget_secrets, mask_secrets, remember_secrets
from dedup.errors import ConfigError
from helpers import make_table, petition

TABLES = "tables: {t: {key: id, fields: {a: short}}}\n"
HOSTILE = ['pa"ss', "back\\x69slash", "two words", "colon: space", "hash #x", "{flow}, [x]", "'single'", "tab\tx",
           "new\nline", "&anchor *alias", "${NOT_AGAIN}"]


@pytest.fixture(autouse=True)
def _forget():
    forget_secrets()
    yield
    forget_secrets()


def write(tmp_path, text: str):
    p = tmp_path / "dedup.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize("style", [
    'source:\n  url: "postgresql://u:${PW}@h/db"\n',
    "source:\n  url: 'postgresql://u:${PW}@h/db'\n",
    "source:\n  url: postgresql://u:${PW}@h/db\n",
    "source: {url: postgresql://u:${PW}@h/db}\n",
    "source:\n  url: >-\n    postgresql://u:${PW}@h/db\n",
], ids=["double", "single", "plain", "flow", "folded"])
def test_an_environment_value_stays_literally_in_the_value(tmp_path, monkeypatch, value, style):
    monkeypatch.setenv("PW", value)
    cfg = load_config(write(tmp_path, style + TABLES))
    assert cfg.source_url == f"postgresql://u:{value}@h/db"


def test_defaults_comments_and_several_references(tmp_path, monkeypatch):
    monkeypatch.setenv("USER_", "app")
    monkeypatch.setenv("PW", 'a"b')
    monkeypatch.delenv("NOPE_UNSET", raising=False)
    cfg = load_config(write(tmp_path, textwrap.dedent("""
        # ${NOPE_UNSET} in a comment is not needed
        source: {url: "postgresql://${USER_}:${PW}@${HOST:-db.example.org}/x"}
        store: {url: "${NOPE_STORE:-sqlite:///s.db}"}
    """) + TABLES))
    assert cfg.source_url == 'postgresql://app:a"b@db.example.org/x'
    assert cfg.store_url == f"sqlite:///{tmp_path}/s.db"


def test_an_unset_variable_a_value_uses_is_named(tmp_path, monkeypatch):
    monkeypatch.delenv("NOPE_A", raising=False)
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, 'source: {url: "postgresql://u:${NOPE_A}@h/db"}\n' + TABLES))
    assert str(e.value) == "environment variable(s) used in the config are not set: NOPE_A"


def test_a_text_placeholder_in_the_file_itself_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("PW", "x")
    cfg = load_config(write(tmp_path, 'source: {url: "postgresql://_dedup_env_0_:${PW}@h/db"}\n' + TABLES))
    assert cfg.source_url == "postgresql://_dedup_env_0_:x@h/db"


def test_references_in_a_recursive_yaml_alias_end(tmp_path, monkeypatch):
    monkeypatch.setenv("PW", "x")
    p = write(tmp_path, 'x-anchor: &a [*a, "${PW}"]\nsource: {url: "sqlite:///${PW}.db"}\n' + TABLES)
    with pytest.raises(ConfigError, match="x-anchor"):
        load_config(p)


@pytest.mark.parametrize("url, shown", [
    ("postgresql+psycopg://app:S3cretPw/prod",
     "source.url: cannot use postgresql+psycopg://app:***: invalid literal for int() with base 10: '***'"),
    ("postgresql+psycopg://app:${PW}/prod",
     "source.url: cannot use postgresql+psycopg://app:***: invalid literal for int() with base 10: '***'"),
    ("mysql+pymysql://app:S3cretPw",
     "source.url: cannot use mysql+pymysql://app:***: invalid literal for int() with base 10: '***'"),
])
def test_a_password_in_a_url_without_a_host_is_masked(tmp_path, monkeypatch, url, shown):
    monkeypatch.setenv("PW", "S3cret Pw")
    p = write(tmp_path, f"source:\n  url: {url}\n" + TABLES)
    result = CliRunner().invoke(main, ["-c", str(p), "full", "-q"])
    assert (result.exit_code, result.output) == (2, f"Error: {shown}\n")


@pytest.mark.parametrize("url, secret", [
    ("postgresql://app:S3cret Pw/prod", "S3cret Pw"),
    ("postgresql://app:S3cret Pw", "S3cret Pw"),
    ("postgresql://app:S3c,ret/prod", "S3c,ret"),
    ("mongodb://app:S3cretPw/dedup", "S3cretPw"),
    ("postgresql://app:S3cret Pw@h[ost/prod", "S3cret Pw"),
])
def test_a_remembered_password_is_masked_whatever_the_url_shape(url, secret):
    remember_secrets(url)
    shown = mask_secrets(f"cannot use {url}: bad port {secret!r}; host {secret}")
    assert secret not in shown and "***" in shown


@pytest.mark.parametrize("url", ["postgresql://db.example.org:5432/x", "mongodb://h1:27017,h2:27017/dedup",
                                 "postgresql://[::1]:5432/x", "sqlite:///dedup-store.db"])
def test_ports_and_hosts_are_not_taken_for_passwords(url):
    remember_secrets(url)
    assert mask_secrets(f"store {url}: down; port 5432, 27017") == f"store {url}: down; port 5432, 27017"


@pytest.mark.parametrize("password", ["S3cretPw", "S3cret Pw"])
def test_a_mongodb_store_url_without_a_host_hides_its_password(tmp_path, password):
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, "x")], name="t")
    p = write(tmp_path, f'source: {{url: "sqlite:///src.db"}}\nstore: {{url: "mongodb://app:{password}/dedup"}}\n'
                        "tables: {t: {key: id, fields: {content: text}}}\n")
    result = CliRunner().invoke(main, ["-c", str(p), "full", "-q"])
    assert (result.exit_code, result.output) == (
        2, "Error: store.url: cannot use mongodb://app:***: Port contains non-digit characters. Hint: username and "
           "password must be escaped according to RFC 3986, use urllib.parse.quote_plus\n")


def test_an_unquoted_whole_value_reference_to_a_number_is_a_number(tmp_path, monkeypatch):
    """`batch_size: ${N}` keeps working as it did when references were pasted into the YAML text;
    quoted, or inside a longer string, a reference stays text."""
    from dedup.config import load_config

    monkeypatch.setenv("N", "250")
    monkeypatch.setenv("WORKERS", "2")
    monkeypatch.setenv("NAME", "0012")
    path = tmp_path / "dedup.yaml"
    path.write_text('source: {url: "sqlite:///s.db", batch_size: ${N}}\nstore: {url: "sqlite:///t.db"}\n'
                    "text: {workers: ${WORKERS}}\n"
                    'tables: {petitions: {key: id, fields: {"${NAME}": short, content: text}}}\n', encoding="utf-8")
    config = load_config(str(path))
    assert config.batch_size == 250 and config.text.workers == 2
    assert config.tables["petitions"].fields[0].name == "0012"
