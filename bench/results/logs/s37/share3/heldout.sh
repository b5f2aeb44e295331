#!/bin/bash
# held-out, base and branch side by side in the same minutes (s37)
L=/work/wt/i22-recall/bench/results/logs/s37/share3
PY=/work/venv/bin/python
cd /tmp/s37
[ -d /tmp/s37/p20k ] || (cd /work/wt/i22-recall && nice -n 19 $PY -m bench.datasets.heldout.petitions_news --rows 20000 --seed 103 --out /tmp/s37/p20k > /tmp/s37/gen20k.log 2>&1)
for size in 5k 20k; do
  for side in base mine; do
    if [ $side = base ]; then D=/work/wt/i22-recall-base; else D=/work/wt/i22-recall; fi
    echo "== $side p$size $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L/heldout_times.log
    (cd $D && /usr/bin/time -v nice -n 19 $PY -m bench.quality.by_kind /tmp/s37/p$size > $L/${side}_p$size.log 2> $L/${side}_p$size.time)
  done
done
for side in base mine; do
  if [ $side = base ]; then D=/work/wt/i22-recall-base; else D=/work/wt/i22-recall; fi
  echo "== $side quality22 $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L/heldout_times.log
  (cd $D && /usr/bin/time -v nice -n 19 $PY -m bench.quality.quality22 --no-peers --no-eval --sets form_letters,topic_place,tickets --sizes 5000,20000 --out /tmp/s37/q3 --tag $side > $L/quality22_$side.log 2> $L/quality22_$side.time)
done
echo "== done $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $L/heldout_times.log
