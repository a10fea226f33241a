#!/usr/bin/env bash
# CPU time of several commands on a shared machine: each command runs ROUNDS times,
# interleaved with the others (so a busy minute slows all of them alike), and the
# minimum and median `perf stat` task-clock of each are printed.
#
# Usage: peers/cpu-min.sh ROUNDS -- "command 1" "command 2" ...
set -euo pipefail
rounds="$1"; shift
[ "${1:-}" = "--" ] && shift
declare -a times
for ((r = 0; r < rounds; r++)); do
    i=0
    for c in "$@"; do
        t=$(perf stat -x, -e task-clock bash -c "$c >/dev/null 2>&1" 2>&1 | awk -F, '/task-clock/ { print $1 }')
        times[i]="${times[i]:-} $t"
        i=$((i + 1))
    done
done
i=0
for c in "$@"; do
    echo "${times[i]}" | tr ' ' '\n' | grep . | sort -g |
        awk -v c="$c" '{ a[NR] = $1 } END { printf "min %7.1f ms  median %7.1f ms  %s\n", a[1], a[int((NR + 1) / 2)], c }'
    i=$((i + 1))
done
