// Smoke tests of the built package (target/wasm-pkg, or CESCACS_WASM_PKG) on the
// repository's testdata only: `cargo xtask wasm --smoke` (or --test) runs them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "../../..");
const pkg = process.env.CESCACS_WASM_PKG ?? path.join(root, "target/wasm-pkg");
const c = await import(pathToFileURL(path.join(pkg, "index.js")).href);
const data = (p) => readFileSync(path.join(root, "testdata", p), "utf8");

test("perft from the start: 68, 4,612, 340,385, 25,048,957", () => {
  assert.deepEqual([1, 2, 3, 4].map((d) => c.perft(d)), [68, 4612, 340385, 25048957]);
});

test("perft of a TLPD, and a depth over the limit is an error, not a trap", () => {
  const start = c.readGames('[Variant "C\'escacs"]\n\n*\n', "ctl-pgn")[0].finalPosition;
  assert.equal(c.perft(2, start), 4612);
  assert.throws(() => c.perft(1000), c.CescacsError);
  assert.throws(() => c.perft(1, "not a tlpd"), /bad TLPD "not a tlpd"/);
  assert.equal(c.perft(1), 68, "the module still answers");
});

test("legal moves of each game's start, and play", () => {
  assert.equal(c.legalMoves(null, "cescacs").length, 68);
  assert.equal(c.legalMoves(null, "chess").length, 20);
  assert.equal(c.legalMoves(null, "xiangqi").length, 44);
  assert.ok(c.legalMoves(null, "chess").includes("Nf3"));
  assert.ok(c.legalMoves(null, "xiangqi:iccs").includes("h2e2"));
  const fen = c.play(null, "e4", "chess");
  assert.equal(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  assert.throws(() => c.play(null, "e5", "chess"), c.CescacsError);
  assert.throws(() => c.legalMoves(null, "go"), /unknown game "go"/);
  const tlpd = c.play(null, c.legalMoves(null)[0]);
  assert.equal(c.legalMoves(tlpd).length > 0, true);
});

test("readGames replays a chess game as python-chess does, ply by ply", () => {
  const games = c.readGames(data("chess/python-chess/kasparov-deep-blue-1997.pgn"), null, {
    name: "kasparov-deep-blue-1997.pgn",
  });
  const fens = new Map();
  for (const line of data("chess/replay-each/kasparov-deep-blue-1997.fens").trim().split("\n")) {
    const m = /^(\d+):(\d+): (.*)$/.exec(line);
    fens.set(`${m[1]}:${m[2]}`, m[3]);
  }
  assert.equal(games.length, 6);
  let plies = 0;
  games.forEach((g, i) => {
    assert.deepEqual(g.errors, []);
    g.positions.forEach((p, k) => {
      assert.equal(p, fens.get(`${i + 1}:${k + 1}`), `game ${i + 1} ply ${k + 1}`);
      plies++;
    });
    // finalPosition is the converters' FEN, which writes the en-passant square after
    // every double step (as the PGN standard's FEN does); positions write it only when
    // a capture is legal, as python-chess does (docs/wasm.md).
    assert.equal(g.finalPosition.split(" ")[0], g.positions.at(-1).split(" ")[0]);
  });
  assert.equal(plies + 6, fens.size);
});

test("readGames locates errors as the CLI does; the other games are still read", () => {
  const text = '[Variant "C\'escacs"]\n\n1. E7-E9 E21-E19 2. Z99-Z98 *\n\n[Variant "C\'escacs"]\n\n1. E7-E9 *\n';
  const games = c.readGames(text, "ctl-pgn", { name: "two.ctl-pgn" });
  assert.equal(games.length, 2);
  assert.equal(games[0].errors.length, 1);
  assert.match(games[0].errors[0], /^two\.ctl-pgn:3:\d+: game 1: error: /);
  assert.deepEqual(games[1].errors, []);
  assert.equal(games[1].moves.length, 1);
  assert.equal(games[1].positions.length, 1);
});

test("an oracle game: moves, positions, tags", () => {
  const [g] = c.readGames(data("ctl-pgn/oracle/game_0001.ctl-pgn"));
  assert.equal(g.tags.Variant, "C'escacs");
  assert.equal(g.moves.length, 30);
  assert.equal(g.positions.length, 30);
  assert.equal(g.finalPosition, g.positions.at(-1));
  assert.deepEqual(g.errors, []);
});

test("convert: CTL-PGN to PCN and back keeps the moves", () => {
  const text = data("ctl-pgn/oracle/game_0001.ctl-pgn");
  const pcn = c.convert(text, "pcn");
  // Framed as `cescacs convert` frames PCN: a JSON array of the games.
  assert.equal(JSON.parse(pcn).length, 1);
  const back = c.convert(pcn, "ctl-pgn", { from: "pcn" });
  assert.deepEqual(c.readGames(back, "ctl-pgn")[0].moves, c.readGames(text)[0].moves);
  assert.throws(() => c.convert(text, "nonsense"), c.CescacsError);
  assert.throws(() => c.convert(text, "pcn", { colour: true }), /unknown option "colour"/);
  assert.throws(
    () => c.convert('[Variant "C\'escacs"]\n\n1. Z99-Z98 *\n', "pcn", { from: "ctl-pgn" }),
    /^CescacsError: <data>:3:\d+: game 1: error: /,
  );
});

test("bad arguments are errors, never traps", () => {
  for (const f of [
    () => c.perft("four"),
    () => c.perft(-1),
    () => c.legalMoves(42),
    () => c.play(null, null),
    () => c.readGames(7),
    () => c.readGames("\u0000\u0000\u0000", "pgn"),
    () => c.convert("", "pcn", "options"),
    () => c.show("rnbqkbnr/8 w", "chess"),
  ]) {
    assert.throws(f, c.CescacsError);
  }
  // Random bytes as every format: answers (games with errors), no trap.
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed);
  for (let i = 0; i < 300; i++) {
    const alphabet = "[]\"{}()*;.-+#x×0123456789abcdefghijklmnopqrstuvwxyzKQRNBP \n\t$!?O=/:";
    let s = "";
    for (let n = rand() % 200; n > 0; n--) s += alphabet[rand() % alphabet.length];
    for (const format of ["ctl-pgn", "pgn", "xiangqi-pgn", "pcn"]) {
      try {
        c.readGames(s, format);
      } catch (e) {
        assert.ok(e instanceof c.CescacsError, `${format} ${JSON.stringify(s)}: ${e}`);
      }
    }
  }
});
