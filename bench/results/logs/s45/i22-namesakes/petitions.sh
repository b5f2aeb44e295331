#!/bin/bash
# held-out petitions side by side (the lead's s44 petitions.sh.txt, this session's folders): $1 = checkout dir, $2 = tag
cd "$1"
PY=/work/venv/bin/python
out=/tmp/i22-namesakes/ho/$2; mkdir -p $out
for spec in "5000 102" "5000 103" "20000 103"; do
  set -- $spec
  d=/tmp/i22-namesakes/ho/data-p$1-s$2; [ -f $d/truth.csv ] || nice -n 10 $PY -m bench.datasets.heldout.petitions_news --rows $1 --seed $2 --out $d > /dev/null
  rm -rf $out/p$1-s$2; cp -r $d $out/p$1-s$2
  nice -n 10 $PY -m bench.quality.by_kind $out/p$1-s$2 > $out/by_kind-p$1-s$2.log 2>&1
done
echo done > $out/status
