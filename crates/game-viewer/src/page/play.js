// Play mode (pages written with the module, `cescacs view --play MODULE.wasm`): the rules
// come from the WebAssembly module embedded in the page (createApi, page/wasm.js, is
// inlined before this script); this script only asks it and draws the answers. Click a
// man of the side to move: its legal moves are ringed; click one to play it. A move
// that is not the next one of the line starts a variation. Undo takes back a move
// played here; Export writes the game (with its variations) as its format's text or
// as PCN.
const V = window.cescacsViewer;
const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
// The module's name of each board, and the format a game of it is written in.
const GAME = { chess: "chess", xiangqi: "xiangqi:iccs", cescacs: "cescacs" };
const FORMAT = { chess: "pgn", xiangqi: "xiangqi-pgn", cescacs: "ctl-pgn" };
const FORMAT_LABEL = { chess: "PGN", xiangqi: "xiangqi PGN", cescacs: "CTL-PGN" };
let api = null;
let selected = null;
let moves = [];

const bytes = Uint8Array.from(atob($("wasm").textContent.trim()), (c) => c.charCodeAt(0));
WebAssembly.compile(bytes).then(
  (module) => {
    api = createApi(module);
    document.body.dataset.play = "ready";
  },
  (e) => {
    $("play-status").textContent = `play mode unavailable: ${e.message}`;
  },
);

const controls = $("controls");
const bar = document.createElement("div");
bar.id = "play";
bar.innerHTML =
  '<button id="undo" title="take back the last move played here">↶ undo</button> ' +
  '<button id="export-text"></button> <button id="export-pcn">PCN</button> ' +
  '<span id="play-status"></span><br><textarea id="export" rows="8" cols="70" readonly></textarea>';
controls.after(bar);

function clearTargets() {
  selected = null;
  moves = [];
  document.querySelectorAll("#b-over .target").forEach((e) => e.remove());
}

function status(text) {
  $("play-status").textContent = text;
}

function select(cell) {
  const { game, node, board } = V.state();
  clearTargets();
  try {
    moves = api.moveTable(node.p, GAME[game.kind]).filter((m) => m.from === cell);
  } catch (e) {
    status(e.message);
    return;
  }
  if (!moves.length) return;
  selected = cell;
  const at = board.at[V.state().flipped ? 1 : 0];
  const z = board.size;
  const over = $("b-over");
  for (const to of new Set(moves.map((m) => m.to))) {
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("class", "target");
    c.setAttribute("data-cell", to);
    c.setAttribute("cx", at[to][0]);
    c.setAttribute("cy", at[to][1]);
    c.setAttribute("r", z * 0.3);
    over.appendChild(c);
  }
}

function play(to) {
  const { game, node } = V.state();
  const choices = moves.filter((m) => m.to === to);
  // A promotion offers several men: the strongest (queen, or C'escacs' queen D) is played.
  const m = choices.find((x) => /=[QD]/.test(x.text)) || choices[0];
  clearTargets();
  if (!m) return;
  const kind = GAME[game.kind];
  let shown;
  try {
    shown = api.show(api.play(node.p, m.text, kind), kind);
  } catch (e) {
    status(e.message);
    return;
  }
  const fields = node.p.trim().split(/\s+/);
  const step = {
    p: shown.position,
    d: shown.board,
    m: m.text,
    n: parseInt(fields[fields.length - 1], 10) || 1,
    b: fields[1] === "b",
    l: [m.from, m.to],
    played: true,
  };
  if (shown.check !== null) step.c = shown.check;
  if (shown.mate) step.x = true;
  const next = node.next;
  if (next && next.m === m.text) {
    V.go(next);
    return;
  }
  if (next) {
    // Off the line: a variation of the move that was next.
    next.v = next.v || [];
    const line = [step];
    next.v.push(line);
    V.link(line, node);
  } else {
    const line = node === game.start ? game.moves : node.line;
    line.push(step);
    V.link(line, line[0] === step ? node : line[0].prev);
    if (line === game.moves) game.start.next = game.moves[0];
  }
  V.rerender();
  V.go(step);
  status("");
}

function undo() {
  const { game, node } = V.state();
  clearTargets();
  if (!node.played || node.next || (node.v && node.v.length)) {
    if (node.prev) V.go(node.prev);
    return;
  }
  const line = node.line;
  line.pop();
  const prev = node.prev;
  if (prev && prev.next === node) prev.next = null;
  if (!line.length) {
    // An emptied variation is dropped from the move it was an alternative to.
    const owner = prev === game.start ? game.moves[0] : prev && prev.next;
    if (owner && owner.v) owner.v = owner.v.filter((v) => v !== line);
  }
  V.rerender();
  V.go(prev || game.start);
}

function tagLine([k, v]) {
  return `[${k} "${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`;
}

// Movetext of a line and its variations, numbered as PGN numbers them.
function movetext(line) {
  const out = [];
  let number = true;
  for (const s of line) {
    if (!s.b) out.push(`${s.n}. ${s.m}`);
    else out.push(number ? `${s.n}... ${s.m}` : s.m);
    number = false;
    for (const v of s.v || []) {
      out.push(`(${movetext(v)})`);
      number = true;
    }
  }
  return out.join(" ");
}

function exportGame(to) {
  const { game } = V.state();
  const tags = game.tags.filter(([k]) => k !== "Result").map(tagLine);
  tags.push('[Result "*"]');
  const text = `${tags.join("\n")}\n\n${movetext(game.moves)} *\n`;
  try {
    $("export").value = api.convert(text, to, { from: FORMAT[game.kind] });
    status("");
  } catch (e) {
    $("export").value = text;
    status(e.message);
  }
}

$("board").addEventListener("click", (e) => {
  if (!api) return;
  const hit = e.target.closest("[data-cell]");
  if (!hit) return clearTargets();
  const cell = Number(hit.getAttribute("data-cell"));
  if (hit.classList.contains("target")) play(cell);
  else if (cell === selected) clearTargets();
  else select(cell);
});
$("undo").onclick = () => api && undo();
$("export-pcn").onclick = () => api && exportGame("pcn");
$("export-text").onclick = () => api && exportGame(FORMAT[V.state().game.kind]);
const label = () => {
  const s = V.state();
  if (s.game) $("export-text").textContent = FORMAT_LABEL[s.game.kind];
};
label();
window.addEventListener("hashchange", label);
