#!/bin/sh
# Compares `cescacs select --eco` with python_chess_eco.py on PGN files, game by game.
# Usage: compare.sh CESCACS PYTHON TABLE.tsv FILE.pgn...   (prints per-file and total counts)
# Games cescacs reports bad are not written by select, and python-chess's games with
# errors print `-`: both are left out, and a file whose remaining counts differ is named.
set -eu
cescacs=$1; py=$2; table=$3; shift 3
here=$(dirname "$0"); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
total=0; same=0
for f in "$@"; do
  # The files' own ECO/Opening/Variation tags are taken out first: a game the table
  # does not name keeps its own, which would otherwise be counted as ours.
  grep -Ev '^\[(ECO|Opening|Variation|SubVariation) ' "$f" > "$tmp/in.pgn" || true
  "$cescacs" select "$tmp/in.pgn" --eco -q -o "$tmp/ours.pgn" 2>/dev/null || true
  "$py" "$here/ours.py" "$tmp/ours.pgn" | cut -f2,3 > "$tmp/ours.tsv"
  "$py" "$here/python_chess_eco.py" "$table" "$f" | awk -F'\t' '$4 != "bad-or-variant"' | cut -f3,4 > "$tmp/peer.tsv"
  a=$(wc -l < "$tmp/ours.tsv"); b=$(wc -l < "$tmp/peer.tsv")
  if [ "$a" != "$b" ]; then echo "$f: $a games written by cescacs, $b read by python-chess: not compared"; continue; fi
  s=$(paste "$tmp/ours.tsv" "$tmp/peer.tsv" | awk -F'\t' '$1==$3 && $2==$4' | wc -l)
  paste "$tmp/ours.tsv" "$tmp/peer.tsv" | awk -F'\t' -v f="$f" '!($1==$3 && $2==$4) {print "DIFF " f ": " $0}'
  echo "$f: $s / $a equal"
  total=$((total + a)); same=$((same + s))
done
echo "TOTAL: $same / $total equal"
