import sys, time, numpy as np, importlib.util
sys.path.insert(0, "/work/wt/i26-rensa")
from dedup.index import minhash as M
spec = importlib.util.spec_from_file_location("base_mh", "/work/wt/i26-rensa-base/dedup/index/minhash.py")
B = importlib.util.module_from_spec(spec); spec.loader.exec_module(B)
d = np.load("/tmp/i26r/feats.npz", allow_pickle=True)
hashes, counts, w = d["hashes"], d["counts"], d["w"]
for name, ww in (("weighted", w), ("plain", None)):
    t = time.process_time(); ref = B.weighted_minhash(hashes, counts, ww, 64); t0 = time.process_time() - t
    t = time.process_time(); new = M.weighted_minhash(hashes, counts, ww, 64); t1 = time.process_time() - t
    print(name, round(t0, 2), round(t1, 2), ref.tobytes() == new.tobytes())
