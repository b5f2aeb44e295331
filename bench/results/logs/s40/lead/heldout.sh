# Held-out scoring of the lead branch (v3 place names) beside main, same script; run from the repo root of each checkout.
# bash heldout.sh BRANCH_DIR BASE_DIR OUT
set -e
B=$1; M=$2; OUT=$3; mkdir -p $OUT
for side in branch:$B main:$M; do
  name=${side%%:*}; dir=${side#*:}
  (cd $dir && nice -n 10 /work/venv/bin/python -m bench.quality.quality22 --no-peers --sets form_letters,topic_place,tickets --sizes 5000,20000 --tag lead-$name --out $OUT) > $OUT/q22-$name.log 2>&1
  (cd $dir && nice -n 10 /work/venv/bin/python -m bench.quality.quality22 --no-peers --sets topic_place --sizes 3000 --tag lead-$name --out $OUT) >> $OUT/q22-$name.log 2>&1
  for rs in 5000:102 20000:103; do
    rows=${rs%%:*}; seed=${rs#*:}; D=/tmp/lead-pet-$name-$rows
    rm -rf $D
    (cd $dir && nice -n 10 /work/venv/bin/python -m bench.datasets.heldout.petitions_news --rows $rows --seed $seed --out $D > /dev/null && nice -n 10 /work/venv/bin/python -m bench.quality.by_kind $D) > $OUT/petitions-$rows-$name.log 2>&1
  done
done
