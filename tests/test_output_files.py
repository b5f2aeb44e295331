"""Files dedup writes for the user arrive whole (issue 27, items 8 and 9): a report that cannot be
written (a full disk) leaves the old file as it was and no temporary file; an --output that is a
symbolic link is judged, and written, by the file it points at."""

import errno
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile

import pytest
from click.testing import CliRunner

from dedup.cli import main
from dedup.output_file import replacing, write_whole
from helpers import child_env, make_table, petition
from test_output_safety import config_file
from test_pipeline import BASE, OTHER

OLD = "the previous report, which must survive\n" * 50


LONG_NAME = "张三" * 10_000  # 60 KB of UTF-8 in each row of the report


@pytest.fixture
def project(tmp_path):
    """One duplicate pair (keys 1 and 3, each with a long name) after a full run, SQLite source and store."""
    make_table(f"sqlite:///{tmp_path / 'src.db'}",
               [petition(1, BASE, LONG_NAME), petition(2, OTHER), petition(3, BASE, LONG_NAME)])
    cfg = config_file(tmp_path, "sqlite:///src.db")
    assert CliRunner().invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    return cfg


def _files_no_larger_than(limit: int):
    """A child whose files cannot grow past ``limit`` bytes: a write past it fails (EFBIG), as on a full disk."""
    def limit_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # else the kernel kills the process instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_files


@pytest.mark.parametrize("fmt", ["json", "csv", "html"])
def test_a_report_that_cannot_be_written_whole_leaves_the_old_file(project, tmp_path, fmt):
    out = tmp_path / "report.out"
    out.write_text(OLD, encoding="utf-8")
    # 64 KB: SQLite can read the store (its 32 KB shared-memory file fits), the 120 KB report cannot be written
    run = subprocess.run([sys.executable, "-m", "dedup", "-c", str(project), "report", "-f", fmt, "-o", str(out)],
                         capture_output=True, text=True, env=child_env(), timeout=120, cwd=tmp_path,
                         preexec_fn=_files_no_larger_than(65_536))
    assert (run.returncode, run.stderr) == (1, f"Error: cannot write {out}: File too large ({out} is as it was)\n")
    assert out.read_text(encoding="utf-8") == OLD
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("command", [["report", "-f", "json"], ["decisions", "export"],
                                     ["eval", "--truth-column", "name", "-f", "json"]])
def test_every_output_file_is_written_whole_or_not_at_all(project, tmp_path, monkeypatch, command):
    out = tmp_path / "out.file"
    out.write_text(OLD, encoding="utf-8")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", disk_full)
    result = CliRunner().invoke(main, ["-c", str(project), *command, "-o", str(out)])
    # the last line: eval warns first that a row has no truth label (its name is NULL)
    assert (result.exit_code, result.output.splitlines()[-1]) == (
        1, f"Error: cannot write {out}: No space left on device ({out} is as it was)")
    assert out.read_text(encoding="utf-8") == OLD
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_failure_part_way_leaves_the_target_and_no_temporary_file(tmp_path):
    target = tmp_path / "x.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(OSError):
        with replacing(target) as fh:
            fh.write("half")
            raise OSError(28, "No space left on device")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_a_new_file_gets_the_usual_permissions_and_a_replaced_one_keeps_its_own(tmp_path):
    old_umask = os.umask(0o022)
    try:
        write_whole(tmp_path / "new.txt", "x")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
    kept = tmp_path / "kept.txt"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o600)
    write_whole(kept, "new")
    assert (stat.S_IMODE(kept.stat().st_mode), kept.read_text(encoding="utf-8")) == (0o600, "new")


def test_a_dangling_symlink_output_is_refused_before_any_work(project, tmp_path):
    link = tmp_path / "out.json"
    link.symlink_to(tmp_path / "no" / "x.json")
    result = CliRunner().invoke(main, ["-c", str(project), "report", "-f", "json", "-o", str(link)])
    assert (result.exit_code, result.output) == (
        2, f"Error: cannot write --output {link}: it links to {tmp_path / 'no' / 'x.json'}, and directory "
           f"{tmp_path / 'no'} does not exist\n")


def test_a_symlink_loop_output_is_refused(project, tmp_path):
    link = tmp_path / "loop.json"
    link.symlink_to(link)
    result = CliRunner().invoke(main, ["-c", str(project), "report", "-o", str(link)])
    assert (result.exit_code, result.output) == (
        2, f"Error: cannot write --output {link}: it is a symbolic link that leads to itself\n")


def test_a_symlink_output_writes_the_file_it_points_at_and_stays_a_link(project, tmp_path):
    (tmp_path / "reports").mkdir()
    for target in (tmp_path / "reports" / "new.json", tmp_path / "reports" / "old.json"):
        if target.name == "old.json":
            target.write_text(OLD, encoding="utf-8")
        link = tmp_path / f"link-{target.name}"
        link.symlink_to(target)
        result = CliRunner().invoke(main, ["-c", str(project), "report", "-f", "json", "-o", str(link)])
        assert result.exit_code == 0, result.output
        assert link.is_symlink() and '"table": "petitions"' in target.read_text(encoding="utf-8")


def test_a_writable_file_in_a_directory_that_is_not_is_written_in_place(tmp_path, monkeypatch):
    target = tmp_path / "x.txt"
    target.write_text("old", encoding="utf-8")

    def no_new_files(**_kw):  # as in a directory this user cannot write (root could: simulated)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", no_new_files)
    write_whole(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    with pytest.raises(PermissionError):
        write_whole(tmp_path / "new.txt", "x")
