# terms_filter.py: 10,000 news contents; filt_a = main's loop, filt_c = this branch's (Segmenter.terms); CPU s; True = same terms as Segmenter.terms
import sys, time, sqlite3
sys.path.insert(0, "/work/wt/i26-rensa")
from dedup.config import load_config
from dedup.runs.recipe import Recipe
from dedup.text.normalize import normalize_text
from dedup.text.segment import cutter, _is_noise
fz = Recipe.of(load_config("/work/wt/i26-rensa/bench/out/vs_rensa/news-20000-s100/dedup.yaml")).featurizer
seg = fz.segmenter
con = sqlite3.connect("/work/wt/i26-rensa/bench/out/vs_rensa/news-20000-s100/petitions.db")
texts = [normalize_text(t) for (t,) in con.execute("select content from petitions limit 10000")]
cut = cutter(seg.engine, seg.hmm)
toks = [cut(t) for t in texts]
t0 = time.process_time(); [cut(t) for t in texts]; print("cut", time.process_time() - t0)
t0 = time.process_time(); ref = [seg.terms(t) for t in texts]; print("terms", time.process_time() - t0)
seg._seen.clear(); seg._dropped.clear()
t0 = time.process_time(); ref = [seg.terms(t) for t in texts]; print("terms cold", time.process_time() - t0)
def filt_a(tokens, kept={}, stop=seg.stopwords):  # main's filter
    for t in tokens:
        if t not in kept:
            kept[t] = t not in stop and not _is_noise(t)
    return [t for t in tokens if kept[t]]
dropped = set(); seen = set()
def filt_b(tokens, stop=seg.stopwords):
    new = set(tokens)
    new.difference_update(seen)
    for t in new:
        seen.add(t)
        if t in stop or _is_noise(t):
            dropped.add(t)
    return [t for t in tokens if t not in dropped]
def filt_c(tokens, stop=seg.stopwords):
    new = set(tokens) - seen
    if new:
        seen.update(new)
        dropped.update(t for t in new if t in stop or _is_noise(t))
    return [t for t in tokens if t not in dropped]
import itertools
def filt_d(tokens, stop=seg.stopwords):
    new = set(tokens) - seen
    if new:
        seen.update(new)
        dropped.update(t for t in new if t in stop or _is_noise(t))
    return list(itertools.filterfalse(dropped.__contains__, tokens))
for f in (filt_a, filt_b, filt_c, filt_d):
    t0 = time.process_time(); out = [f(t) for t in toks]; print(f.__name__, time.process_time() - t0, out == ref)
    t0 = time.process_time(); out = [f(t) for t in toks]; print(f.__name__, "warm", time.process_time() - t0, out == ref)
    dropped.clear(); seen.clear()
from dedup.text.segment import _may_differ, _rjieba, _ASCII_JOIN
rj = _rjieba()
t0 = time.process_time(); [rj.cut(t, True) for t in texts]; print("rj.cut", time.process_time() - t0)
t0 = time.process_time(); m = [_may_differ(t) for t in texts]; print("may_differ", time.process_time() - t0, sum(m))
t0 = time.process_time(); m = [_ASCII_JOIN.search(t) for t in texts]; print("search", time.process_time() - t0, sum(x is not None for x in m))
print(sum(map(len, texts)) / len(texts), sum(map(len, toks)) / len(toks))
