#!/usr/bin/env bash
# Whether two `cescacs` binaries (before and after a change) give the same results on
# files: for each file, `check` (-j1, -j2, --strict) and `convert` to PCN (-j1, -j2),
# PGN, CTL-PGN and xiangqi PGN are run by both, and their standard output, standard
# error (the timing at the end of the summary removed), exit status and output file
# compared. Prints each differing run and a count.
#
# Usage: peers/same-output.sh OLD_BINARY NEW_BINARY FILE...
# e.g.   find testdata ../shared -type f \( -name '*.pgn' -o -name '*.ctl-pgn' \
#          -o -name '*.json' -o -name '*.jsonl' -o -name '*.pcn' \) -size -3M | sort |
#          xargs peers/same-output.sh /tmp/cescacs-before target/release/cescacs
set -uo pipefail
old="$1"; new="$2"; shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=0; differing=0
run() { # binary tag args...
    local bin="$1" tag="$2"; shift 2
    "$bin" "$@" >"$work/$tag.stdout" 2>"$work/$tag.stderr"
    echo $? >"$work/$tag.status"
    sed -i 's/ in [0-9.]* s$//' "$work/$tag.stderr"
}
modes=("check -j1" "check -j2" "check -j1 --strict"
    "convert --to pcn -j1 -o OUT.json" "convert --to pcn -j2 -o OUT.json"
    "convert --to pgn -j1 -o OUT.pgn" "convert --to ctl-pgn -j1 -o OUT.ctl-pgn"
    "convert --to xiangqi-pgn -j1 -o OUT.xq.pgn")
# MODES='mode;mode...' runs those instead (e.g. a change to one command:
# MODES='convert --to pcn -j1 -o OUT.json;select -j1 --player a -o OUT.pgn').
if [ -n "${MODES:-}" ]; then IFS=';' read -ra modes <<<"$MODES"; fi
for file in "$@"; do
    for mode in "${modes[@]}"; do
        rm -f "$work"/a.out* "$work"/b.out*
        # shellcheck disable=SC2086 # the mode is words
        run "$old" a ${mode//OUT/$work/a.out} "$file"
        # shellcheck disable=SC2086
        run "$new" b ${mode//OUT/$work/b.out} "$file"
        runs=$((runs + 1))
        same=1
        for part in stdout stderr status; do
            cmp -s "$work/a.$part" "$work/b.$part" || same=0
        done
        for out in "$work"/a.out* "$work"/b.out*; do
            [ -e "$out" ] || continue
            other="${out/\/a.out/\/b.out}"
            [ "$other" = "$out" ] && other="${out/\/b.out/\/a.out}"
            cmp -s "$out" "$other" || same=0
        done
        if [ "$same" = 0 ]; then
            differing=$((differing + 1))
            echo "differs: [$mode] $file"
        fi
    done
done
echo "runs=$runs differing=$differing"
[ "$differing" = 0 ]
