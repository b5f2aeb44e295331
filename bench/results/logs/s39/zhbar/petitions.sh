#!/bin/bash
# held-out petitions (petitions_news 20k, seed 103), main then this branch
L=/work/wt/i22-zhbar/bench/results/logs/s39/zhbar
cd /work/wt/i22-zhbar-base && PYTHONPATH=/work/wt/i22-zhbar-base nice -n 5 /work/venv/bin/python -m bench.datasets.heldout.petitions_news --rows 20000 --seed 103 --out /tmp/zhbar/p20k > $L/petitions-gen.log 2>&1
for side in base mine; do
  if [ $side = base ]; then D=/work/wt/i22-zhbar-base; else D=/work/wt/i22-zhbar; fi
  cd $D && PYTHONPATH=$D nice -n 5 /usr/bin/time -v /work/venv/bin/python -m bench.quality.by_kind /tmp/zhbar/p20k > $L/by_kind-$side-p20k.log 2> $L/by_kind-$side-p20k.time
  echo "$side done $(date)" >> $L/petitions.status
done
