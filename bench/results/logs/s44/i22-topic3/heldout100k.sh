#!/bin/bash
L=/work/wt/i22-topic3/bench/results/logs/s44/i22-topic3
for tag in base mine; do
  d=/work/wt/i22-topic3; [ $tag = base ] && d=/work/wt/i22-topic3-base
  cd $d; echo "== $tag $(date -u) $(uptime)"
  /usr/bin/time -v -o $L/quality22-${tag}100k.time nice -n 10 /work/venv/bin/python -m bench.quality.quality22 --no-peers --no-eval --sets form_letters --sizes 100000 --out /tmp/s44-i22-topic3/q --tag ${tag}100k > $L/quality22-${tag}100k.log 2>&1
  echo "rc $? $(date -u) $(uptime)"
done
