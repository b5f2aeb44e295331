import sys, time, sqlite3
sys.path.insert(0, "/work/wt/i26-rensa")
from dedup.config import load_config
from dedup.runs.recipe import Recipe
from dedup.text import normalize
fz = Recipe.of(load_config("/work/wt/i26-rensa/bench/out/vs_rensa/news-20000-s100/dedup.yaml")).featurizer
sig = fz.signature
con = sqlite3.connect("/work/wt/i26-rensa/bench/out/vs_rensa/news-20000-s100/petitions.db"); con.row_factory = sqlite3.Row
rows = [dict(r) for r in con.execute("select * from petitions limit 10000")]
B = 2000
for name, fn in (("numbers_of", lambda b: sig.numbers_of(b)), ("parts", lambda b: sig.parts(b))):
    normalize._MEMO.clear()
    t = time.process_time()
    for i in range(0, len(rows), B): fn(rows[i:i+B])
    print(name, round((time.process_time() - t) * 1e6 / len(rows), 1), "us/row")
import cProfile, pstats
normalize._MEMO.clear()
cProfile.run("[sig.numbers_of(rows[i:i+B]) for i in range(0, len(rows), B)]", "/tmp/i26r/num.prof")
pstats.Stats("/tmp/i26r/num.prof").sort_stats("tottime").print_stats(12)
