"""place_tokens alone, old (tests/test_numbers_fast.py's reference) beside new, on the 20k news rows'
title and content already NFKC (memo hit): best of 5, process_time. Run from the worktree root with PYTHONPATH=.:tests"""
import sqlite3
import sys
import time

from dedup.text import numbers
from dedup.text.normalize import nfkc
from test_numbers_fast import old_number_tokens, old_place_tokens

D = "bench/out/vs_rensa/news-20000-s100/"
con = sqlite3.connect(D + "petitions.db")
texts = [t for r in con.execute("SELECT title, content FROM petitions ORDER BY id LIMIT 2000") for t in r if t]
n = 2000
[nfkc(t) for t in texts]
for name, f in (("old place_tokens", old_place_tokens), ("new place_tokens", numbers.place_tokens),
                ("old number_tokens", old_number_tokens), ("new number_tokens", numbers.number_tokens)):
    best = min((lambda s: ([f(t) for t in texts], time.process_time() - s)[1])(time.process_time()) for _ in range(5))
    sys.stdout.write(f"{name}: {best * 1e6 / n:.2f} us/row\n")
