"use strict";
// The viewer's script: it only places the men and marks that the page's data gives
// for each position (computed by the game-viewer crate); it knows no rules.
(() => {
  const data = id => JSON.parse(document.getElementById(id).textContent);
  const B = data("boards"), G = data("games"), X = data("index");
  const NS = "http://www.w3.org/2000/svg";
  const $ = id => document.getElementById(id);
  const svg = $("board"), layers = {};
  for (const n of ["defs", "bg", "under", "men", "over"]) layers[n] = $("b-" + n);
  let game = null, node = null, flipped = false, drawnBoard = "";
  const el = (name, attrs, text) => {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const html = (name, cls, text) => {
    const e = document.createElement(name);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const tag = (g, name) => (g.tags.find(t => t[0] === name) || [, ""])[1];
  const NAGS = { $1: "!", $2: "?", $3: "!!", $4: "??", $5: "!?", $6: "?!", $10: "=", $14: "+=", $15: "=+", $16: "±", $17: "∓", $18: "+-", $19: "-+" };

  // Each position knows the one before it and the next in its line.
  function link(line, prev) {
    line.forEach((s, i) => {
      s.line = line;
      s.prev = i ? line[i - 1] : prev;
      s.next = line[i + 1] || null;
      for (const v of s.v || []) link(v, s.prev);
    });
  }
  G.forEach(g => {
    g.start.next = g.moves[0] || null;
    link(g.moves, g.start);
    g.start.ply = 0;
    g.moves.forEach((s, i) => (s.ply = i + 1));
  });

  function drawBoard() {
    const b = B[game.kind], o = flipped ? 1 : 0, key = game.kind + o;
    if (drawnBoard !== key) {
      svg.setAttribute("viewBox", `0 0 ${b.w} ${b.h}`);
      svg.setAttribute("width", b.w);
      svg.setAttribute("height", b.h);
      layers.defs.innerHTML = b.defs;
      layers.bg.innerHTML = b.bg[o];
      drawnBoard = key;
    }
    const at = b.at[o], z = b.size;
    for (const n of ["under", "men", "over"]) layers[n].textContent = "";
    [...node.d].forEach((c, i) => {
      if (c === ".") return;
      const side = c === c.toUpperCase() ? "w-" : "b-";
      layers.men.appendChild(el("use", { href: "#" + b.prefix + side + c.toUpperCase(), x: at[i][0] - z / 2, y: at[i][1] - z / 2, width: z, height: z, "data-cell": i }));
    });
    if (node.l) {
      const [f, t] = node.l.map(i => at[i]);
      for (const p of [f, t]) layers.under.appendChild(el("circle", { class: "last", cx: p[0], cy: p[1], r: z * 0.53 }));
      const dx = t[0] - f[0], dy = t[1] - f[1], len = Math.hypot(dx, dy) || 1, k = 1 - (z * 0.35) / len;
      layers.over.appendChild(el("line", { class: "arrow", x1: f[0], y1: f[1], x2: f[0] + dx * k, y2: f[1] + dy * k, "marker-end": "url(#v-head)" }));
    }
    if (node.c !== undefined) {
      const p = at[node.c];
      layers.under.appendChild(el("circle", { cx: p[0], cy: p[1], r: z * 0.58, fill: "url(#bsv-check)" }));
      if (node.x) layers.over.appendChild(el("circle", { class: "mate", cx: p[0], cy: p[1], r: z * 0.53 }));
    }
    svg.setAttribute("data-position", node.p);
  }

  function caption() {
    const who = [tag(game, "White") || tag(game, "Red"), tag(game, "Black")].filter(Boolean).join(" – ");
    let move = "start";
    if (node !== game.start) move = `${node.n}${node.b ? "…" : "."} ${node.m}`;
    const state = node.x ? "checkmate" : node.c !== undefined ? "check" : "";
    const black = node.p.split(" ")[1] === "b";
    const side = black ? "Black" : game.kind === "xiangqi" ? "Red" : "White";
    $("caption").textContent = [who, move, `${side} to move`, state].filter(Boolean).join(" · ");
    $("position").textContent = node.p;
  }

  function go(target, keepHash) {
    node = target;
    drawBoard();
    caption();
    document.querySelectorAll(".mv.on").forEach(e => e.classList.remove("on"));
    if (node.el) {
      node.el.classList.add("on");
      node.el.scrollIntoView({ block: "nearest" });
    }
    // The shareable #game=N&ply=K link; a page shown from srcdoc (Jupyter's iframe) has
    // no URL of its own to carry it, and steps without it.
    if (!keepHash && node.ply !== undefined && location.protocol !== "about:") history.replaceState(null, "", `#game=${game.no}&ply=${node.ply}`);
  }

  function moveList(line, box) {
    let number = true;
    line.forEach(s => {
      box.append(" ");
      if (number || !s.b) box.append(html("span", "num", s.n + (s.b ? "…" : ".")));
      const m = html("span", "mv", s.m);
      m.onclick = () => go(s);
      s.el = m;
      box.append(m);
      for (const g of s.g || []) box.append(html("span", "nag", NAGS[g] || g));
      if (s.e) box.append(html("span", "eval", s.e));
      if (s.t) box.append(html("span", "clock", s.t));
      number = false;
      for (const c of s.k || []) {
        const text = c.replace(/\[%[^\]]*\]/g, "").trim();
        if (text) { box.append(html("span", "comment", text)); number = true; }
      }
      for (const v of s.v || []) {
        const d = html("div", "var");
        moveList(v, d);
        box.append(d);
        number = true;
      }
    });
  }

  // The tag list and the move list of the current game.
  function render(g) {
    const tags = $("tags");
    tags.textContent = "";
    const title = [tag(g, "White") || tag(g, "Red"), tag(g, "Black")].filter(Boolean).join(" – ") || `Game ${g.no}`;
    tags.append(html("h1", "", title));
    const dl = html("dl");
    for (const [k, v] of g.tags) { dl.append(html("dt", "", k)); dl.append(html("dd", "", v)); }
    tags.append(dl);
    const box = $("moves");
    box.textContent = "";
    for (const c of g.intro || []) box.append(html("span", "comment", c));
    moveList(g.moves, box);
    box.append(html("span", "result", g.result || ""));
  }

  function open(g, ply) {
    game = g;
    render(g);
    $("legend").style.display = g.kind === "cescacs" ? "" : "none";
    document.querySelectorAll("#list tr.on").forEach(r => r.classList.remove("on"));
    if (g.row) g.row.classList.add("on");
    const main = [g.start, ...g.moves];
    go(main[Math.max(0, Math.min(ply, main.length - 1))]);
  }

  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    const no = parseInt(h.get("game") || "0", 10), ply = parseInt(h.get("ply") || "0", 10);
    const g = G.find(x => x.no === no);
    if (g) return open(g, ply);
    const far = X.find(x => x[0] === no);
    if (far) return location.assign(far[1] + location.hash);
    if (G.length) open(G[0], 0);
  }

  function list() {
    const rows = X.length ? X : G.map(g => [g.no, "", tag(g, "White") || tag(g, "Red"), tag(g, "Black"), tag(g, "Event"), tag(g, "Date"), g.result || ""]);
    if (rows.length < 2) { $("list").style.display = "none"; return; }
    const body = $("rows");
    rows.forEach(r => {
      const tr = html("tr");
      r.forEach((c, i) => { if (i !== 1) tr.append(html("td", "", c)); });
      tr.dataset.find = (r[2] + " " + r[3] + " " + r[4]).toLowerCase();
      tr.onclick = () => { const g = G.find(x => x.no === r[0]); if (g) open(g, 0); else location.assign(r[1] + `#game=${r[0]}&ply=0`); };
      const g = G.find(x => x.no === r[0]);
      if (g) g.row = tr;
      body.append(tr);
    });
    $("filter").oninput = e => {
      const q = e.target.value.toLowerCase();
      for (const tr of body.children) tr.style.display = tr.dataset.find.includes(q) ? "" : "none";
    };
  }

  const flip = () => { flipped = !flipped; go(node, true); };
  document.addEventListener("keydown", e => {
    if (!game || e.target.tagName === "INPUT") return;
    const main = game.moves;
    const to = { ArrowRight: node.next, ArrowLeft: node.prev, Home: game.start, End: main[main.length - 1] || game.start }[e.key];
    if (e.key === "f") flip();
    if (to) { go(to); e.preventDefault(); }
  });
  $("first").onclick = () => game && go(game.start);
  $("prev").onclick = () => game && node.prev && go(node.prev);
  $("next").onclick = () => game && node.next && go(node.next);
  $("last").onclick = () => game && go(game.moves[game.moves.length - 1] || game.start);
  $("flip").onclick = () => game && flip();
  window.addEventListener("hashchange", fromHash);
  // What play mode (page/play.js, present only in pages built with the module) needs.
  window.cescacsViewer = {
    state: () => ({ game, node, board: B[game.kind], flipped }),
    go,
    rerender: () => { render(game); go(node, true); },
    link: (line, prev) => link(line, prev),
  };
  list();
  fromHash();
})();
