// Conformance of the built package against the native engine on ../shared: run by
// `cargo xtask wasm --test`, which computes the native side first (CESCACS_WASM_EXPECTED)
// and names the shared folder (CESCACS_WASM_SHARED).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "../../..");
const pkg = process.env.CESCACS_WASM_PKG ?? path.join(root, "target/wasm-pkg");
const c = await import(pathToFileURL(path.join(pkg, "index.js")).href);
const expectedPath = process.env.CESCACS_WASM_EXPECTED;
const shared = process.env.CESCACS_WASM_SHARED;
if (!expectedPath || !shared) {
  throw new Error("CESCACS_WASM_EXPECTED and CESCACS_WASM_SHARED unset: run `cargo xtask wasm --test`");
}
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));

test(`legalMoves on every oracle position equals the native engine's (${expected.positions.length})`, () => {
  assert.ok(expected.positions.length >= 250);
  let moves = 0;
  for (const p of expected.positions) {
    assert.deepEqual(c.legalMoves(p.tlpd, "cescacs"), p.moves, p.tlpd);
    moves += p.moves.length;
  }
  assert.ok(moves > 0);
});

test(`readGames on every oracle game gives the native final TLPD (${expected.games.length} files)`, () => {
  const oracle = new Map();
  for (const line of readFileSync(path.join(shared, "oracle/games.jsonl"), "utf8").split("\n")) {
    if (line.trim()) {
      const g = JSON.parse(line);
      oracle.set(g.file, g.final_tlpd);
    }
  }
  assert.ok(expected.games.length >= 300);
  let againstOracle = 0;
  for (const g of expected.games) {
    const games = c.readGames(readFileSync(g.file, "utf8"), "ctl-pgn", { name: g.name });
    assert.deepEqual(games.map((x) => x.finalPosition), g.finals, g.name);
    if (oracle.has(g.name)) {
      // The oracle's own final TLPD, where it has one: an independent reference,
      // compared as a position (read by our tolerant reader: the oracle writes the
      // castling field `-` where our writer writes `--`).
      assert.equal(games[0].finalPosition, c.show(oracle.get(g.name), "cescacs").position, g.name);
      againstOracle++;
    }
  }
  assert.ok(againstOracle >= 300, `${againstOracle} games checked against the oracle`);
});

test(`chess and xiangqi positions equal the native replay on the corpora (${expected.corpora.length} files)`, () => {
  let plies = 0;
  let bad = 0;
  const formats = new Set();
  for (const f of expected.corpora) {
    const games = c.readGames(readFileSync(f.file, "utf8"), f.format, { name: f.name });
    // `replay --each` prints nothing for a game it cannot replay whole (a chess
    // variant, an ambiguous move): such a game has its errors here, and its positions
    // up to the error; every other game must show the CLI's positions exactly.
    games.forEach((g, i) => {
      const cli = f.positions[i] ?? [];
      if (g.errors.length) {
        assert.deepEqual(cli, [], `${f.name} game ${i + 1}: ${g.errors[0]}`);
        bad++;
      } else {
        assert.deepEqual(g.positions, cli, `${f.name} game ${i + 1}`);
      }
    });
    assert.ok(f.positions.length <= games.length, `${f.name}: the CLI replayed more games`);
    for (const p of f.positions) plies += p.length;
    formats.add(f.format);
  }
  assert.deepEqual([...formats].sort(), ["pgn", "xiangqi-pgn"]);
  assert.ok(plies > 10000, `${plies} positions`);
  console.log(`# corpora: ${plies} positions equal the CLI's; ${bad} games with errors (none replayed by the CLI)`);
});
