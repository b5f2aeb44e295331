"""A PostgreSQL store whose connection the server ends mid-run (pg_terminate_backend, a restart):
the run stops with its one-line error and nothing else on stderr (issue 27, 9): psycopg's
"error ignored terminating <psycopg.Pipeline [BAD]>" warning came first."""

from __future__ import annotations

import subprocess
import sys

from dedup.demo.generator import generate_petitions, write_sample_db
from helpers import child_env

RUN = """
import sys
import sqlalchemy as sa
import dedup.store.sql_write as sql_write
from dedup.cli import main

real = sql_write.add_blocks

def add_blocks(conn, *a, **k):  # the server ends this connection as the blocks are written
    pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    admin = sa.create_engine(conn.engine.url)
    with admin.connect() as other:
        other.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
    admin.dispose()
    return real(conn, *a, **k)
sql_write.add_blocks = add_blocks
main()
"""


def test_a_store_connection_ended_by_the_server_is_one_line(tmp_path, postgres_url):
    write_sample_db(f"sqlite:///{tmp_path / 'src.db'}", generate_petitions(300, seed=6))
    (tmp_path / "dedup.yaml").write_text(
        f'source: {{url: "sqlite:///src.db"}}\nstore: {{url: "{postgres_url}"}}\ntext: {{workers: 1}}\n'
        "tables: {petitions: {key: id, fields: {name: short, title: text, content: text}}}\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", RUN, "-c", str(tmp_path / "dedup.yaml"), "full", "-q"],
                          env=child_env(), capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1, done.stderr
    assert len(lines) == 1 and lines[0].startswith("Error: store postgresql"), done.stderr
