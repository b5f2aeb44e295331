"""The table's lock is a lease (dedup.runs.lease): a live run keeps it even where its pid cannot be
seen (another pid namespace on the same hostname: a container), and loses it only when it stops
renewing; a run of this boot and pid namespace that is gone is taken over at once."""

from __future__ import annotations

import datetime as dt
import socket
import subprocess
import sys

import pytest

import dedup.runs.lease as lease
from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.errors import LockedError
from dedup.runs.full import run_full
from dedup.runs.locking import table_run
from dedup.store import open_store
from helpers import config_for, wait_until
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401 - the fixture, for "mongo_live"

FIELDS = {"name": "short", "title": "text", "content": "text"}


@pytest.fixture(params=["sqlite", "postgres", "mariadb", "mongomock", "mongo_live"])
def store_url(request, tmp_path, monkeypatch):
    return store_url_of(request.param, request, tmp_path, monkeypatch)


@pytest.fixture
def cfg(tmp_path, store_url):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, generate_petitions(40, seed=4))
    return config_for(src, store_url, fields=FIELDS)


def dead_pid() -> int:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    return gone.pid


def lock(store_url: str, owner: str, seconds: float) -> None:
    store = open_store(store_url)
    try:
        store.acquire_lock("petitions", owner, seconds)
    finally:
        store.close()


def test_a_live_run_in_another_pid_namespace_keeps_its_lock(cfg):
    """Same hostname, a pid this machine does not have, another namespace, lease unexpired: its
    lock was taken ("a run on this machine that is no longer running") and both runs worked."""
    container = f"{socket.gethostname()}:{dead_pid()}:c0ffee00:0123456789ab"
    lock(cfg.store_url, container, lease.LEASE_SECONDS)
    with pytest.raises(LockedError, match=r"locked by another run \(.*c0ffee00.*\) until "):
        run_full(cfg)
    lock(cfg.store_url, container, -1)  # its renewals stopped: the lease has expired
    assert run_full(cfg).rows_read == 40


def test_a_lock_named_the_older_way_waits_for_its_expiry(cfg):
    """``host:pid:token`` says nothing of the namespace it was taken in."""
    lock(cfg.store_url, f"{socket.gethostname()}:{dead_pid()}:old", 600)
    with pytest.raises(LockedError):
        run_full(cfg)


def test_a_gone_run_of_this_boot_and_namespace_is_taken_over_at_once(cfg):
    lock(cfg.store_url, lease.new_owner(dead_pid()), lease.LEASE_SECONDS)
    assert run_full(cfg).rows_read == 40


def expiry(store, table: str = "petitions") -> dt.datetime:
    """When the lock's lease ends, as the store holds it (naive UTC)."""
    try:
        store.acquire_lock(table, "probe", 60)
    except LockedError as e:
        until = str(e).split(" until ")[1][:19]
        return dt.datetime.strptime(until, "%Y-%m-%d %H:%M:%S")
    raise AssertionError("the lock was free")


def test_a_run_holds_a_short_lease_and_renews_it(cfg, monkeypatch):
    monkeypatch.setattr(lease, "RENEW_SECONDS", 0.05)
    monkeypatch.setattr(lease, "LEASE_SECONDS", 30)
    with table_run(cfg, cfg.table("petitions"), "full") as (_source, store, _run):
        first = expiry(store)
        now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
        assert first <= now + dt.timedelta(seconds=31)
        wait_until(lambda: expiry(store) > first, timeout=60, what="the lease to be renewed")
    lock(cfg.store_url, "next", 60)  # released at the end


def test_a_renewal_that_finds_the_lock_taken_says_so(cfg, monkeypatch):
    monkeypatch.setattr(lease, "RENEW_SECONDS", 0.05)
    store = open_store(cfg.store_url)
    try:
        store.acquire_lock("petitions", "mine", -1)
        store.acquire_lock("petitions", "other", 60)  # taken while "mine" was stopped
        with lease.Lease(store, "petitions", "mine") as held:
            wait_until(lambda: held.lost, timeout=60, what="the renewal to find the lock taken")
        assert held.lost == "other"
    finally:
        store.close()
