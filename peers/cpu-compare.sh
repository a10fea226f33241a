#!/usr/bin/env bash
# CPU-time comparison of chess-pgn and pgn-reader on one file, less sensitive to a
# shared machine than wall-clock rates: minimum `perf stat` task-clock over N
# interleaved runs of each. Run peers/run-chess-bench.sh first (it builds both).
#
# Usage: peers/cpu-compare.sh <file.pgn> parse|replay [N=7]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ours="${CARGO_TARGET_DIR:-$here/../target-chess}/release/examples/throughput"
peer="$here/pgn-reader-bench/target/release/pgn-reader-bench"
file="$1"; mode="$2"; n="${3:-7}"
cpu() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }'; }
a=1e18; b=1e18
for ((i = 0; i < n; i++)); do
    a=$(awk -v x="$a" -v y="$(cpu "$ours" "$file" "$mode")" 'BEGIN { print (y < x) ? y : x }')
    b=$(awk -v x="$b" -v y="$(cpu "$peer" "$file" "$mode")" 'BEGIN { print (y < x) ? y : x }')
done
awk -v m="$mode" -v a="$a" -v b="$b" 'BEGIN { printf "%s: chess-pgn %.1f ms, pgn-reader %.1f ms CPU; chess-pgn speed / pgn-reader = %.2f\n", m, a, b, b / a }'
