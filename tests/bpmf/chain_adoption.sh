#!/usr/bin/env bash
# A chain resumed from a checkpoint written before chain ids (HYBPMFC1) adopts a
# --samples-dir whose model.txt names no chain only when that model.txt describes
# this very chain (issue 54, case 15). Another run's samples there - another seed
# (the issue: its samples 1-3 stayed beside ours and model.txt was rewritten to our
# seed, exit 0), K, burn-in or data - are refused: exit 2 on every rank, one message
# naming the field, the directory and the checkpoint as they were. The chain's own
# samples of before chain ids are still adopted and then name the chain.
# Usage: chain_adoption.sh BPMF WORK LAUNCH... (the launcher up to its -np flag)
source "$(dirname "$0")/chain_script_common.sh"
data=$(cd "$(dirname "$0")/data" && pwd)
# model_args [NAME=VALUE...]: args, the model of tests/bpmf/data/chain-v1 (checkpointed
# after iteration 2 of 6) with the values named changed.
model_args() {
  local K=2 burnin=2 samples=4 seed=3 train=$data/good_train.mm
  local "$@"
  args=(--train "$train" --test "$data/good_test.mm" -K "$K" --burnin "$burnin" --samples "$samples" --seed "$seed"
        --quiet)
}
fail() { echo "FAILED: $*"; exit 1; }
digest_dir() { (cd "$1" && sha256sum $(ls | grep -v chain.lock) | sha256sum); }

# old_samples NAME [NAME=VALUE...]: the samples (every one) of a finished run of the model
# with the values named changed, its model.txt as written before chain ids (no chain, no
# data hash).
old_samples() {
  local dir=$work/$1
  shift
  model_args "$@"
  "${launch[@]}" 2 "$bpmf" "${args[@]}" --save-samples-every 1 --samples-dir "$dir" > "$work/old.out" 2>&1 ||
    { cat "$work/old.out"; fail "making the samples of $dir"; }
  sed -i '/^chain = /d; /^data = /d' "$dir/model.txt"
}
# resume_v1 NAME: a fresh copy of chain-v1 resumed with --samples-dir $work/NAME
# (output in $work/NAME.out, exit code in rc).
resume_v1() {
  rm -rf "$work/ckpt" && cp -r "$data/chain-v1" "$work/ckpt"
  model_args
  "${launch[@]}" 2 "$bpmf" "${args[@]}" --checkpoint-every 1 --resume "$work/ckpt" --save-samples-every 1 \
    --samples-dir "$work/$1" > "$work/$1.out" 2>&1
  rc=$?
}
# refused NAME REGEX: resuming into $work/NAME exits 2 with REGEX in its one error line
# and leaves the samples and the checkpoint as they were.
refused() {
  local before ckpt
  before=$(digest_dir "$work/$1") ckpt=$(cd "$data/chain-v1" && sha256sum chain.ckpt | cut -d' ' -f1)
  resume_v1 "$1"
  local errors
  errors=$(grep -c "hympi-bpmf: error" "$work/$1.out")
  if [ "$rc" -ne 2 ] || [ "$errors" -ne 1 ] ||
     ! grep -Eq "hympi-bpmf: error: '$work/$1' holds the samples of another run \(model.txt: $2" "$work/$1.out"; then
    cat "$work/$1.out"
    echo "model.txt now:"; cat "$work/$1/model.txt"
    fail "$1: expected exit 2 and one error naming '$2', got exit $rc and $errors error line(s)"
  fi
  [ "$(digest_dir "$work/$1")" = "$before" ] || fail "$1: the refused run changed the samples directory"
  [ "$(cd "$work/ckpt" && sha256sum chain.ckpt | cut -d' ' -f1)" = "$ckpt" ] || fail "$1: the checkpoint changed"
  echo "refused ($1): $(grep "hympi-bpmf: error" "$work/$1.out")"
}

old_samples seed1 seed=1 samples=3
refused seed1 "seed 1, this run seed 3\)"
old_samples k3 K=3
refused k3 "K 3, this run K 2\)"
old_samples burnin1 burnin=1 samples=5
refused burnin1 "burnin 1, this run burnin 2\)"
sed '$s/6.0$/6.5/' "$data/good_train.mm" > "$work/other_train.mm"  # the same shape, one value changed
old_samples other_data train="$work/other_train.mm"
refused other_data "mean 6.0625, this run mean 6"

# The chain's own samples of before chain ids (the same data, model and seed): adopted.
old_samples own
resume_v1 own
[ "$rc" -eq 0 ] || { cat "$work/own.out"; fail "resuming into the chain's own samples: exit $rc"; }
chain=$(grep -o "resumed chain [0-9a-f]\{32\}" "$work/own.out" | cut -d' ' -f3)
[ -n "$chain" ] && grep -qx "chain = $chain" "$work/own/model.txt" && grep -qx "seed = 3" "$work/own/model.txt" &&
  grep -qx "data = [0-9a-f]\{16\}" "$work/own/model.txt" || { cat "$work/own/model.txt"; fail "own: model.txt"; }
[ "$(ls "$work"/own/sample-*-V.npy | wc -l)" -eq 4 ] || fail "own: not 4 samples"
echo "adopted its own samples of before chain ids: chain $chain"
echo "chain adoption: all cases as expected"
