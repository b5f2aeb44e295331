"""The MongoDB server's side of bench_mongo_store.py: start a throw-away SecantusDB, find a
server's process by its port, read its CPU seconds, and sample it with py-spy (where a run's
server CPU goes)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path


def server_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) the process has used (psutil, or /proc without it); 0 without a pid."""
    if not pid:
        return 0.0
    try:
        import psutil
    except ImportError:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


def pid_listening(url: str) -> int | None:
    """The pid of the local process listening on the URL's port (psutil), for its CPU time."""
    from urllib.parse import urlsplit

    try:
        import psutil
        port = urlsplit(url).port or 27017
        for conn in psutil.net_connections("tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port and conn.pid:
                return conn.pid
    except (ImportError, psutil.Error, ValueError):
        return None
    return None


class ServerProfile:
    """py-spy sampling the server during one run (``--profile-server DIR``): the share of its
    samples in each command handler, and the functions most of them pass through."""

    def __init__(self, out_dir: str | None, pid: int | None, label: str):
        self.path = Path(out_dir) / f"server-{label}.txt" if out_dir and pid else None
        self.proc = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
            self.proc = subprocess.Popen([spy, "record", "--nonblocking", "-p", str(pid), "-r", "20", "-f", "raw",
                                          "-o", str(self.path)],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> str:
        if self.proc is None:
            return ""
        self.proc.send_signal(2)  # py-spy writes its file on SIGINT
        self.proc.wait(120)
        return summarise_profile(self.path)


def summarise_profile(path: Path, top: int = 12) -> str:
    """Shares of a py-spy raw profile: by the server's command handler, and the functions most
    samples pass through (each function counted once per sample)."""
    if not path.exists():
        return f"  (no profile written at {path})"
    handlers: dict[str, int] = {}
    through: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        total += n
        raw = stack.split(";")
        frames = [f.split(" (")[0] for f in raw]
        handler = next((name for name, f in zip(frames, raw)  # _find, _update, _insert, ... of commands.py
                        if name.startswith("_") and "commands.py" in f), "other")
        handlers[handler] = handlers.get(handler, 0) + n
        for f in set(frames):
            through[f] = through.get(f, 0) + n
    if not total:
        return "  (empty profile)"
    share = lambda d, k: f"{k} {100 * d[k] / total:.0f}%"  # noqa: E731
    lines = ["  server samples by command handler: " + ", ".join(
        share(handlers, k) for k in sorted(handlers, key=handlers.get, reverse=True)[:8])]
    skip = {"Thread._bootstrap", "Thread._bootstrap_inner", "Thread.run", "dispatch"}
    busiest = [k for k in sorted(through, key=through.get, reverse=True) if k not in skip][:top]
    lines.append("  functions most server samples pass through: " + ", ".join(share(through, k) for k in busiest))
    return "\n".join(lines) + f"\n  ({total} samples at 20 Hz, {path})"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(exe: str, work: Path) -> tuple[subprocess.Popen, str]:
    """A SecantusDB on a free port with a fresh data directory; its URL once it answers a ping."""
    import pymongo

    port = free_port()
    data = work / "mongo-data"
    shutil.rmtree(data, ignore_errors=True)
    log = open(work / "mongo-server.log", "w")
    proc = subprocess.Popen([exe, "--host", "127.0.0.1", "--port", str(port), "--storage-path", str(data),
                             "--log-level", "WARNING"], stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    url = f"mongodb://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            sys.exit(f"the server exited ({proc.returncode}); see {work / 'mongo-server.log'}")
        client = pymongo.MongoClient(url, serverSelectionTimeoutMS=1000)
        try:
            client.admin.command("ping")
            info = client.server_info()
            version = f"{info['version']}" + (f", SecantusDB {info['secantusVersion']}" if "secantusVersion" in info else "")
            break
        except pymongo.errors.PyMongoError:
            if time.monotonic() > deadline:
                proc.terminate()
                sys.exit(f"the server at {url} did not answer a ping within 120 s")
        finally:
            client.close()
    print(f"server: {Path(exe).name} (reports MongoDB {version}), pid {proc.pid}, at {url}", flush=True)
    return proc, url
