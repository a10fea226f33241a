// perft(4) from the C'escacs start, one thread, same run: the WebAssembly module under
// node, the native CLI (`cescacs perft 4 --jobs 1`, CESCACS_CLI), and the author's
// TypeScript engine when CESCACS_TS names its compiled sources (peers/cescacs-ts/build.sh).
// Best of ROUNDS (default 3) wall times (one for the TypeScript engine); prints nodes/s
// and the ratios.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "../../..");
const pkg = process.env.CESCACS_WASM_PKG ?? path.join(root, "target/wasm-pkg");
const rounds = Number(process.env.ROUNDS ?? 3);
const depth = Number(process.env.DEPTH ?? 4);
const expected = { 1: 68, 2: 4612, 3: 340385, 4: 25048957 }[depth];

function best(label, f, n = rounds) {
  let nodes = 0;
  let ms = Infinity;
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    nodes = f();
    ms = Math.min(ms, Number(process.hrtime.bigint() - t) / 1e6);
  }
  console.log(`${label.padEnd(34)} ${String(nodes).padStart(10)} ${ms.toFixed(0).padStart(8)} ms ${(nodes / ms / 1000).toFixed(2).padStart(8)} M nodes/s`);
  return { nodes, ms };
}

console.log(`perft(${depth}) from the start, 1 thread, best of ${rounds}; node ${process.version}`);
const c = await import(pathToFileURL(path.join(pkg, "index.js")).href);
const wasm = best("cescacs-wasm (node)", () => c.perft(depth));
let ok = wasm.nodes === expected;

let native;
if (process.env.CESCACS_CLI) {
  // The CLI's time includes process start (a few ms); its own count is checked too.
  native = best("cescacs CLI (native, --jobs 1)", () =>
    Number(execFileSync(process.env.CESCACS_CLI, ["perft", String(depth), "--jobs", "1"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim().split(/\s+/).at(-1)),
  );
  ok &&= native.nodes === expected;
}

let ts;
if (process.env.CESCACS_TS) {
  const engine = await import(pathToFileURL(path.join(process.env.CESCACS_TS, "cescacs.js")).href);
  const helper = await import(pathToFileURL(path.join(process.env.CESCACS_TS, "cescacs.positionHelper.js")).href);
  const str = (p) => helper.PositionHelper.toString(p);
  // The moves the GUI offers: pieceMoves (clickHex) and the castlings of its castling
  // dialog (castlingStrMoves for each king column), made and unmade with
  // doMove/doCastling/popMove; leaves counted without making them, as ours are. No
  // promotion is reachable within 4 plies of the start.
  const castlings = (game) => {
    const out = [];
    if (game.checked || game.playerCastlingStatus().length <= 1) return out;
    for (const col of ["I", "H", "F", "E", "D"]) {
      const [, status] = game.playerCastlingPositionStatus(col);
      if (status !== "") continue;
      const king = game.castlingKingPosition(col);
      if (king != null) for (const m of game.castlingStrMoves(game.turn, king)) out.push(m);
    }
    return out;
  };
  const perft = (game, d) => {
    let n = 0;
    const cs = castlings(game);
    if (d === 1) n += cs.length;
    else for (const m of cs) { game.doCastling(m); n += perft(game, d - 1); game.popMove(); }
    for (const piece of [...(game.turn === "w" ? game.whitePieces() : game.blackPieces())]) {
      if (!piece.position) continue;
      if (d === 1) {
        for (const _ of game.pieceMoves(piece)) n++;
        continue;
      }
      const from = str(piece.position);
      for (const to of [...game.pieceMoves(piece)].map(str)) {
        game.doMove(from, to);
        n += perft(game, d - 1);
        game.popMove();
      }
    }
    return n;
  };
  // One round: it takes minutes at depth 4.
  ts = best("author's TypeScript engine (node)", () => perft(new engine.Game(), depth), 1);
  // Its incremental state gives 4 nodes more at depth 4 (shared/oracle/README.md).
  if (ts.nodes !== expected) console.log(`  (TypeScript engine count ${ts.nodes}, canonical ${expected})`);
}

console.log("ratios (time):");
if (ts) console.log(`  TypeScript engine / cescacs-wasm = ${(ts.ms / wasm.ms).toFixed(1)}x`);
if (native) console.log(`  cescacs-wasm / native CLI       = ${(wasm.ms / native.ms).toFixed(2)}x (the cost of the browser)`);
if (!ok) {
  console.log(`FAILED: a count differs from ${expected}`);
  process.exit(1);
}
