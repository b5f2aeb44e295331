import sys, time, sqlite3, numpy as np, yaml
sys.path.insert(0, "/work/wt/i26-rensa")
from dedup.config import load_config
from dedup.runs.recipe import Recipe
from dedup.text.rarity import ContentModel
from dedup.index import minhash as M
folder = sys.argv[1]
cfg = load_config(folder + "/dedup.yaml")
recipe = Recipe.of(cfg)
sig = recipe.method.signature
con = sqlite3.connect(folder + "/petitions.db"); con.row_factory = sqlite3.Row
rows = [dict(r) for r in con.execute("select * from petitions order by id")]
t=time.process_time(); _h, hashes, counts = sig.parts(rows); print("parts", time.process_time()-t)
w = ContentModel.learn(hashes, len(counts), *recipe.method.common).weights(hashes)
print(len(rows), len(hashes), "light", (w<1).mean() if w is not None else 0)
np.savez("/tmp/i26r/feats.npz", hashes=hashes, counts=counts, w=w)
