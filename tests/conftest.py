"""Database fixtures: every test that takes ``db_url`` runs on SQLite, PostgreSQL and MariaDB.

PostgreSQL tests get a fresh schema and MariaDB tests a fresh database, dropped afterwards, so
tests never see each other's tables. Where a server is not reachable the test is skipped with
the reason, except under CI (``CI`` set), where a missing server fails the run. Tests of a real
MongoDB server (tests/mongo_fixtures.py) get the ``mongo_live`` marker here, and the run ends with
one line counting how they went, so a log shows whether they ran.
"""

from __future__ import annotations

import fnmatch
import os
import uuid
from urllib.parse import quote

import pytest
import sqlalchemy as sa

POSTGRES_URL = os.environ.get("DEDUP_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
MARIADB_URL = os.environ.get("DEDUP_TEST_MARIADB_URL", "mysql+pymysql://root@127.0.0.1:3306/test?charset=utf8mb4")
IN_CI = bool(os.environ.get("CI"))

_reachable: dict[str, str | None] = {}


def _check(url: str) -> str | None:
    """None when the server answers, else why not."""
    if url not in _reachable:
        try:
            engine = sa.create_engine(url)
            with engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
            engine.dispose()
            _reachable[url] = None
        except Exception as e:  # any driver error means unreachable here
            _reachable[url] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return _reachable[url]


def _require(url: str, name: str) -> None:
    why = _check(url)
    if why:
        if IN_CI:
            pytest.fail(f"{name} is required in CI but not reachable at {url}: {why}")
        pytest.skip(f"{name} not reachable at {url}: {why}")


@pytest.fixture
def postgres_url():
    _require(POSTGRES_URL, "PostgreSQL")
    schema = "t_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in POSTGRES_URL else "?"
    yield f"{POSTGRES_URL}{sep}options={quote(f'-csearch_path={schema}')}"
    with admin.connect() as c:
        c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture
def mariadb_url():
    _require(MARIADB_URL, "MariaDB")
    name = "t_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(MARIADB_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"))
    url = sa.make_url(MARIADB_URL).set(database=name)
    yield url.render_as_string(hide_password=False)
    with admin.connect() as c:
        c.execute(sa.text(f"DROP DATABASE `{name}`"))
    admin.dispose()


@pytest.fixture(scope="session")
def _mariadb_store_template():
    """One MariaDB database brought to the newest store revision, once a session: MariaDB runs the
    revisions' DDL at about 1.7 s a store, the largest part of the store contract's MariaDB tests."""
    _require(MARIADB_URL, "MariaDB")
    from dedup.store import open_store

    name = "t_tmpl_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(MARIADB_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"))
        open_store(sa.make_url(MARIADB_URL).set(database=name).render_as_string(hide_password=False)).close()
        tables = [r[0] for r in c.execute(sa.text(f"SHOW TABLES FROM `{name}`"))]
    yield name, tables
    with admin.connect() as c:
        c.execute(sa.text(f"DROP DATABASE `{name}`"))
    admin.dispose()


@pytest.fixture
def mariadb_store_url(mariadb_url, _mariadb_store_template):
    """A fresh MariaDB database holding an empty store at the newest revision, copied table by table
    from the session's template (the store contract's tests; migrations have tests of their own)."""
    template, tables = _mariadb_store_template
    name = sa.make_url(mariadb_url).database
    admin = sa.create_engine(MARIADB_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        for table in tables:
            c.execute(sa.text(f"CREATE TABLE `{name}`.`{table}` LIKE `{template}`.`{table}`"))
            c.execute(sa.text(f"INSERT INTO `{name}`.`{table}` SELECT * FROM `{template}`.`{table}`"))
    admin.dispose()
    return mariadb_url


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'db.sqlite'}"


@pytest.fixture(params=["sqlite", "postgres", "mariadb"])
def db_url(request):
    """One database URL per backend; the same test runs on each."""
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture(autouse=True)
def _no_remembered_secrets():
    """Passwords remembered for masking are process-wide: one test's password must not mask another's output."""
    yield
    from dedup.db.masking import forget_secrets

    forget_secrets()


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """jieba's cache in a per-session directory, not the user's."""
    monkeypatch.setenv("DEDUP_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


# --- live MongoDB: mark the tests, count them, say so in one line --------------------------------

def _is_mongo_live(item) -> bool:
    callspec = getattr(item, "callspec", None)
    return "mongo_live_url" in getattr(item, "fixturenames", ()) or (
        callspec is not None and "mongo_live" in callspec.params.values())


# --- slow: left out of the README's command, run by CI's `python -m pytest -m 'faults or slow'` ---------
# The README's command must stay under 6 minutes on a 2-core machine (issue 23). A test runs there on
# the server stores (PostgreSQL, MariaDB, a live MongoDB) and on mongomock (seconds a test: it rescans
# collections on every write) only where the store or reader is the point (EVERY_SERVER, KEEP);
# elsewhere those variants repeat its SQLite one and run in CI only.
SERVERS = {"postgres", "mariadb", "mongo_live", "mongomock"}
EVERY_SERVER = {"test_store_contract.py", "test_source.py", "test_mongo_store.py"}
# Tests of many seconds each (measured with --durations on the 2-core machine); each reason says why
# the default run does not lose the capability.
SLOW = {
    "test_incremental.py::test_killed_runs_then_a_clean_run_give_the_same_groups":
        "runs killed at random points: fault injection (test_kill_points covers kills too)",
    "test_incremental.py::test_mongo_changes_cut_at_each_write_are_repaired_by_running_again":
        "a cut at every Mongo write: fault injection",
    "test_incremental.py::test_a_failure_at_any_statement_of_the_write_leaves_the_store_as_it_was":
        "a failure at every SQL statement: fault injection",
    "test_killed_migrations.py::test_two_first_uses_of_a_new_*store_at_once_both_succeed*":
        "two processes racing to migrate: concurrency, seconds of waiting on locks",
    "test_mongo_sharding.py::test_every_block_collection_command_is_targeted_by_block_name":
        "a profiled sharded run (the other sharding tests stay)",
    "test_cluster_runs.py::test_size_warnings_are_silent_on_the_demo": "the whole demo table",
    "test_clusters.py::test_fifty_thousand_copies_are_one_group_for_a_few_verifications": "a big table",
    "test_init.py::test_person_table_scores_as_the_hand_written_config": "a 2,000-row wide table (the demo's stays)",
}
KEEP = {"test_incremental_property.py::test_full_then_incremental_runs_equal_one_full_run[late-rows-sqlite-mongomock]",
        "test_incremental_property.py::test_full_then_incremental_runs_equal_one_full_run[late-rows-sqlite-mongo_live]"}


def _is_slow(item) -> bool:
    name = item.nodeid.rsplit("/", 1)[-1]
    if name in KEEP:
        return False
    if any(fnmatch.fnmatchcase(name, pattern.replace("[", "[[]")) for pattern in SLOW):  # * a wildcard, [ itself
        return True
    params = set(map(str, getattr(getattr(item, "callspec", None), "params", {}).values()))
    return bool(params & SERVERS) and name.split("::")[0] not in EVERY_SERVER


@pytest.hookimpl(tryfirst=True)  # before the -m selection of addopts reads the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        if _is_mongo_live(item):
            item.add_marker(pytest.mark.mongo_live)
        if _is_slow(item):
            item.add_marker(pytest.mark.slow)


_mongo_live_outcomes: dict[str, str] = {}
_RANK = {"passed": 0, "skipped": 1, "failed": 2}


def pytest_runtest_logreport(report):
    if "mongo_live" not in report.keywords:
        return
    if report.when == "call" or report.outcome != "passed":
        outcome = report.outcome if report.when == "call" or report.outcome == "skipped" else "failed"
        if hasattr(report, "wasxfail"):
            outcome = "skipped"
        before = _mongo_live_outcomes.get(report.nodeid, "passed")
        _mongo_live_outcomes[report.nodeid] = max(before, outcome, key=_RANK.__getitem__)


def pytest_terminal_summary(terminalreporter):
    counts = {k: 0 for k in _RANK}
    for outcome in _mongo_live_outcomes.values():
        counts[outcome] += 1
    if not _mongo_live_outcomes and not IN_CI:
        return
    uri = os.environ.get("DEDUP_TEST_MONGO_URI") or "unset"
    terminalreporter.write_line(
        f"live MongoDB tests (mongo_live, DEDUP_TEST_MONGO_URI={uri}): {len(_mongo_live_outcomes)} ran"
        f" - passed {counts['passed']}, failed {counts['failed']}, skipped {counts['skipped']}")
