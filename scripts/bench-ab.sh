#!/usr/bin/env bash
# Alternates bench/e2e runs of two git revisions, run by run, and prints one line per run: on a noisy
# machine runs of one build differ more than most changes move them, so builds are compared only
# side by side (docs/benchmarks.md, "End to end").
#
#   scripts/bench-ab.sh <rev-a> <rev-b> [rounds=5] [bench/e2e.ts options, default --mode automine]
#
# Each revision is checked out in a temporary worktree that shares this checkout's node_modules.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <rev-a> <rev-b> [rounds] [bench options]" >&2; exit 2; }
rev_a=$1 rev_b=$2 rounds=${3:-5}
shift $(( $# >= 3 ? 3 : 2 ))
[ $# -gt 0 ] || set -- --mode automine
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d /tmp/sw-bench-ab-XXXXXX)
cleanup() {
  for dir in "$work"/a "$work"/b; do [ -d "$dir" ] && git -C "$root" worktree remove --force "$dir"; done
  rm -rf "$work"
}
trap cleanup EXIT
for side in a b; do
  rev=$rev_a; [ $side = b ] && rev=$rev_b
  git -C "$root" worktree add --detach --quiet "$work/$side" "$rev"
  ln -s "$root/node_modules" "$work/$side/node_modules"
  (cd "$work/$side" && node bin/build-contracts.js >/dev/null)
  echo "[ab] $side = $(git -C "$work/$side" log --oneline -1)" >&2
done
summary() {
  awk -F'|' '
    $2 ~ /automine/ && NF == 12 { gsub(/ /, "", $3); gsub(/ /, "", $6); gsub(/ /, "", $7); rate[$3] = $6; p50[$3] = $7 }
    # The CPU table: process + chains, and the database column where there is one (a number on Postgres).
    $2 ~ /automine/ && NF >= 8 && NF < 12 {
      gsub(/ /, "", $3); gsub(/ /, "", $4); gsub(/ /, "", $5); gsub(/ /, "", $6)
      cpu[$3] = $4 "+" $5 (NF >= 10 && $6 ~ /^[0-9.]+$/ ? "+" $6 : "")
    }
    /ratios service\/bare/ { ratio = $0; sub(/.*p50 /, "", ratio); sub(/,.*/, "", ratio) }
    END { printf "service %s/s p50 %s ms cpu %s | bare %s/s p50 %s ms cpu %s | p50 ratio %s\n",
          rate["service"], p50["service"], cpu["service"], rate["bare"], p50["bare"], cpu["bare"], ratio }'
}
for round in $(seq 1 "$rounds"); do
  for side in a b; do
    # The bench exits 1 when a mark is missed: that is a figure here, not a failure.
    line=$( (cd "$work/$side" && npx tsx bench/e2e.ts "$@" 2>&1 || true) | summary)
    echo "$(date -u +%H:%M:%S) round $round $side: $line"
  done
done
