#!/usr/bin/env bash
# Compiles the C'escacs author's TypeScript engine (cescacs/cescacs.typescript, not on
# npm: give a checkout) with tsc from npm, outside the workspace, for the perft row of
# `cargo xtask wasm --bench`. No code of it is copied into this repository.
#
# Usage: peers/cescacs-ts/build.sh CHECKOUT [OUT]   (OUT default /tmp/cescacs-ts)
# Then:  CESCACS_TS=OUT/out/src cargo xtask wasm --bench
set -euo pipefail
src="$(cd "${1:?give a checkout of cescacs/cescacs.typescript}" && pwd)"
out="${2:-/tmp/cescacs-ts}"
mkdir -p "$out"
cd "$out"
# The version the oracle data was made with (shared/oracle/README.md).
[ -x node_modules/.bin/tsc ] || npm install --no-audit --no-fund typescript@5.9.3 >/dev/null
rm -rf out
# tsc reports a type error in ts.general.ts (an unreachable `??`) and emits all the same.
node_modules/.bin/tsc -p "$src/tsconfig.json" --outDir "$out/out" || true
# The sources import "./x"; node's ES modules need "./x.js" (the author's makejs.sh does the same).
sed -i 's/\(from[ ]*"[^"]*\)";/\1.js";/g' out/src/*.js
echo '{"type": "module"}' > out/package.json
echo "$out/out/src"
