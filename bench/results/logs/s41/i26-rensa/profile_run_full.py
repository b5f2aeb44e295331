"""cProfile of run_full in one process (text.workers 1) on a vs_rensa table; stage CPU too."""
import cProfile, pstats, sys, os, time, io
from pathlib import Path
from dedup.config import load_config
from dedup.runs.full import run_full
folder = Path(sys.argv[1]); out = sys.argv[2]
for f in folder.glob("prof-store.db*"): f.unlink()
cfg_text = (folder / "dedup.yaml").read_text().replace("petitions-store.db", "prof-store.db")
cfg_text += "text:\n  workers: 1\n"
(folder / "prof.yaml").write_text(cfg_text)
cfg = load_config(str(folder / "prof.yaml"))
pr = cProfile.Profile()
c0 = time.process_time(); t0 = time.perf_counter()
pr.enable(); r = run_full(cfg); pr.disable()
print("cpu", time.process_time() - c0, "wall", time.perf_counter() - t0, "groups", len(r.groups))
print("stages", {k: round(v, 2) for k, v in r.stages.items()})
print("stages_cpu", {k: round(v, 2) for k, v in r.stages_cpu.items()})
pr.dump_stats(out)
s = io.StringIO(); p = pstats.Stats(pr, stream=s); p.sort_stats("tottime").print_stats(35); p.sort_stats("cumtime").print_stats(60)
print(s.getvalue())
