#!/bin/bash
# held-out, scored unchanged: main (base checkout) then this branch, in one script
SIZES=$1; TAG=$2; SETS=$3
L=/work/wt/i22-zhbar/bench/results/logs/s39/zhbar
for side in base mine; do
  if [ $side = base ]; then D=/work/wt/i22-zhbar-base; else D=/work/wt/i22-zhbar; fi
  cd $D && PYTHONPATH=$D nice -n 5 /usr/bin/time -v /work/venv/bin/python -m bench.quality.quality22 --no-peers --no-eval \
     --sets $SETS --sizes $SIZES --out /tmp/zhbar/q-$side-$TAG --tag $side > $L/quality22-$side-$TAG.log 2> $L/quality22-$side-$TAG.time
  cp /tmp/zhbar/q-$side-$TAG/*.md $L/ 2>/dev/null
  echo "$side done $(date)" >> $L/heldout-$TAG.status
done
