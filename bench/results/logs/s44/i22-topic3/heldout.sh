#!/bin/bash
# held-out quality22, base then branch, alternately in one script
L=/work/wt/i22-topic3/bench/results/logs/s44/i22-topic3
for tag in base mine; do
  d=/work/wt/i22-topic3; [ $tag = base ] && d=/work/wt/i22-topic3-base
  cd $d; echo "== $tag $(date -u) $(uptime)"
  /usr/bin/time -v -o $L/quality22-$tag.time nice -n 10 /work/venv/bin/python -m bench.quality.quality22 --no-peers --sets topic_place,tickets,form_letters --sizes 5000,20000 --out /tmp/s44-i22-topic3/q --tag $tag > $L/quality22-$tag.log 2>&1
  echo "rc $? $(date -u) $(uptime)"
done
