#!/usr/bin/env bash
# Side-by-side PGN throughput: chess-pgn vs pgn-reader+shakmaty vs python-chess.
#
# Usage: peers/run-chess-bench.sh [min_games] [python_max_games]
#   min_games         size of the generated corpus (default 100000 games)
#   python_max_games  python-chess reads only this prefix of the same corpus
#                     (default 5000; it runs ~1000x slower, rates are per byte/game)
# ROUNDS=n (default 3): interleaved runs of the two Rust tools; the best is kept.
#
# The corpus is shared/corpus/classic-pgn-real (or testdata/chess) REPEATED until it
# holds at least min_games games: repeated real games, not distinct ones. It is
# written under /tmp and never committed.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
min_games="${1:-100000}"
py_games="${2:-5000}"
rounds="${ROUNDS:-3}"
src="$root/../shared/corpus/classic-pgn-real"
[ -d "$src" ] || src="$root/testdata/chess"
corpus="/tmp/chess-bench-corpus-${min_games}.pgn"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target-chess}"

echo "== building (release)" >&2
(cd "$root" && cargo build --release -q -p chess-pgn --example throughput)
(cd "$here/pgn-reader-bench" && CARGO_TARGET_DIR="$here/pgn-reader-bench/target" cargo build --release -q)
ours="$CARGO_TARGET_DIR/release/examples/throughput"
peer="$here/pgn-reader-bench/target/release/pgn-reader-bench"
python3 -c 'import chess' 2>/dev/null || pip install -q chess

if [ ! -s "$corpus" ]; then
    echo "== generating $corpus from $src (files repeated until >= $min_games games)" >&2
    mapfile -t files < <(find "$src" -name '*.pgn' | sort)
    per_pass=$(cat "${files[@]}" | grep -c '^\[Event ' || true)
    passes=$(( (min_games + per_pass - 1) / per_pass ))
    tmp="$corpus.tmp"
    : > "$tmp"
    for ((i = 0; i < passes; i++)); do
        for f in "${files[@]}"; do
            # A blank line between files so no game runs into the next file's tags.
            cat "$f" >> "$tmp"
            printf '\n\n' >> "$tmp"
        done
    done
    mv "$tmp" "$corpus"
fi
bytes=$(stat -c %s "$corpus")
echo "== corpus: $corpus, $bytes bytes, $(grep -c '^\[Event ' "$corpus") [Event tags (repeated corpus)" >&2

declare -A mib gps games
run() { # tool mode cmd... ; keeps the best run (the machine is shared, so noise only slows)
    local tool="$1" mode="$2"; shift 2
    local out m
    out="$("$@")"
    echo "$out" >&2
    m=$(sed -E 's/.*mib_s=([0-9.]+).*/\1/' <<<"$out")
    if awk -v a="$m" -v b="${mib[$tool.$mode]:-0}" 'BEGIN { exit !(a > b) }'; then
        mib[$tool.$mode]=$m
        gps[$tool.$mode]=$(sed -E 's/.*games_s=([0-9.]+).*/\1/' <<<"$out")
        games[$tool.$mode]=$(sed -E 's/.* games=([0-9]+).*/\1/' <<<"$out")
    fi
}
cat "$corpus" > /dev/null # warm the page cache for everyone alike
for mode in parse replay; do
    # Interleaved repetitions, best of $rounds, so load from others hits both tools alike.
    for ((r = 0; r < rounds; r++)); do
        run chess-pgn "$mode" "$ours" "$corpus" "$mode"
        run pgn-reader "$mode" "$peer" "$corpus" "$mode"
    done
    run python-chess "$mode" python3 "$here/python-chess-bench/bench.py" "$corpus" "$mode" "$py_games"
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo
echo "| mode | tool | games | MiB/s | games/s | chess-pgn / tool (MiB/s) |"
echo "|---|---|---:|---:|---:|---:|"
for mode in parse replay; do
    for tool in chess-pgn pgn-reader python-chess; do
        echo "| $mode | $tool | ${games[$tool.$mode]} | ${mib[$tool.$mode]} | ${gps[$tool.$mode]} | $(ratio "${mib[chess-pgn.$mode]}" "${mib[$tool.$mode]}") |"
    done
done
echo
echo "Wall-clock rates, best of $rounds interleaved runs for the Rust tools (one run for python-chess)."
echo "python-chess read the first $py_games games of the same file; its rates are over the bytes it consumed,"
echo "and its 'parse' mode still resolves every SAN on a board (it has no parse-only reader)."
