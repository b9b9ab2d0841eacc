#!/bin/bash
# `judge test PKG` (from an empty cache) against BAPCtools' `bt generate && bt run` (in a fresh
# copy) on packages whose data comes from generators/generators.yaml, rounds interleaved.
#
#   benchmarks/generated_data.sh PACKAGES_DIR BT [ROUNDS]
#
# PACKAGES_DIR holds the package folders (e.g. BAPCtools' test/problems, with the headers that
# link into BAPCtools copied in); BT is the `bt` command of a BAPCtools install (e.g. a venv's
# bin/bt: `python3 -m venv /tmp/peers && /tmp/peers/bin/pip install bapctools`).
# Prints: round, package, judge seconds, judge exit status, bt seconds, bt exit status.
set -u
packages=${1:?PACKAGES_DIR}; bt=${2:?BT}; rounds=${3:-3}
shift $#
work=$(mktemp -d /tmp/generated-data-bench.XXXX)
trap 'rm -rf "$work"' EXIT
for round in $(seq "$rounds"); do
  for package in "$packages"/*/; do
    name=$(basename "$package")
    [ -f "$package/generators/generators.yaml" ] || continue
    rm -rf "$work/judge" "$work/bt" "$work/cache"
    mkdir -p "$work/judge" "$work/bt" "$work/cache" && chmod 755 "$work" "$work/cache"
    cp -r "$package" "$work/judge/$name" && cp -r "$package" "$work/bt/$name"
    started=$(date +%s.%N)
    (cd "$work/judge" && JUDGE_CACHE="$work/cache" judge test "$name" >/dev/null 2>&1); judge_status=$?
    judge_seconds=$(echo "$(date +%s.%N) - $started" | bc)
    started=$(date +%s.%N)
    (cd "$work/bt/$name" && "$bt" generate >/dev/null 2>&1; "$bt" run >/dev/null 2>&1); bt_status=$?
    bt_seconds=$(echo "$(date +%s.%N) - $started" | bc)
    printf '%s\t%s\t%.2f\t%s\t%.2f\t%s\n' "$round" "$name" "$judge_seconds" "$judge_status" "$bt_seconds" "$bt_status"
  done
done
