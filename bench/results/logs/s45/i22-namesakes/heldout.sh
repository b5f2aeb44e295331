#!/bin/bash
# held-out quality22 (5k, 20k; then form_letters 100k --no-eval) in one checkout: $1 = base|mine
L=/work/wt/i22-namesakes/bench/results/logs/s45/i22-namesakes
tag=$1; d=/work/wt/i22-namesakes; [ $tag = base ] && d=/work/wt/i22-namesakes-base
cd $d; echo "== $tag $(date -u) $(uptime) $(git log --oneline -1)"
/usr/bin/time -v -o $L/quality22-$tag.time nice -n 10 /work/venv/bin/python -m bench.quality.quality22 --no-peers --sets topic_place,tickets,form_letters --sizes 5000,20000 --out /tmp/i22-namesakes/q --tag $tag > $L/quality22-$tag.log 2>&1
echo "rc $? $(date -u) $(uptime)"
/usr/bin/time -v -o $L/quality22-${tag}100k.time nice -n 10 /work/venv/bin/python -m bench.quality.quality22 --no-peers --no-eval --sets form_letters --sizes 100000 --out /tmp/i22-namesakes/q --tag ${tag}100k > $L/quality22-${tag}100k.log 2>&1
echo "rc $? $(date -u) $(uptime)"
