// Browser test of the viewer's play mode (`cescacs view --play MODULE.wasm`): for a
// chess, a xiangqi and a C'escacs game, the page opened from file:// in headless
// Chromium compiles its embedded module; a click on a man rings as many cells as the
// npm package's `moveTable` gives that man; a click on one plays it and the board's
// `data-position` is the package's `play`; a different move at the start opens a
// variation; undo takes it back; the export gives the game in its format and as PCN.
// No request other than the page's own file, no console error.
//
// Usage: node play.mjs CESCACS PKG OUT   (PKG: target/wasm-pkg, from `cargo xtask wasm`)
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { resolve, join } from "node:path";
import { pathToFileURL } from "node:url";

const [cescacs, pkg, out = "out"] = process.argv.slice(2).map((p) => resolve(p));
const root = resolve(import.meta.dirname, "../../..");
const c = await import(pathToFileURL(join(pkg, "index.js")).href);
const games = [
  { name: "chess", game: "chess", file: "testdata/chess/python-chess/kasparov-deep-blue-1997.pgn" },
  { name: "xiangqi", game: "xiangqi:iccs", file: "testdata/xiangqi/real/wukong-xiangqi/xqdb_traditional_chinese.pgn" },
  { name: "cescacs", game: "cescacs", file: "testdata/ctl-pgn/real/2023-09-08.ctl-pgn" },
];
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let failures = 0;
let passed = 0;
const fail = (message) => { failures++; console.log("FAIL " + message); };
const check = (ok, message) => (ok ? passed++ : fail(message));

for (const g of games) {
  const html = resolve(out, `play-${g.name}.html`);
  execFileSync(cescacs, ["view", resolve(root, g.file), "--game", "1", "--play", join(pkg, "cescacs_wasm.wasm"), "-o", html], { stdio: "ignore" });
  const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
  const url = pathToFileURL(html).href;
  page.on("request", (r) => { if (r.url().split("#")[0] !== url) fail(`${g.name}: request ${r.url()}`); });
  page.on("console", (m) => { if (m.type() === "error") fail(`${g.name}: console error ${m.text()}`); });
  page.on("pageerror", (e) => fail(`${g.name}: page error ${e.message}`));
  await page.goto(url);
  await page.waitForSelector("body[data-play=ready]", { timeout: 30000 });
  const shown = () => page.getAttribute("#board", "data-position");
  const start = await shown();

  // Click a man that can move; its rings are the package's moves for it.
  const table = c.moveTable(start, g.game);
  const first = c.readGames(readFileSync(resolve(root, g.file), "utf8"))[0].moves[0];
  const next = c.play(start, first, g.game);
  // A move other than the game's own first one: playing it opens a variation.
  const pick = table.find((m) => c.play(start, m.text, g.game) !== next);
  const mine = table.filter((m) => m.from === pick.from);
  const rings = new Set(mine.map((m) => m.to)).size;
  await page.click(`#b-men use[data-cell="${pick.from}"]`);
  const ringed = await page.locator("#b-over circle.target").count();
  check(ringed === rings, `${g.name}: ${ringed} cells ringed, moveTable gives ${rings} for cell ${pick.from}`);
  check(JSON.stringify(table.map((m) => m.text)) === JSON.stringify(c.legalMoves(start, g.game)),
    `${g.name}: moveTable and legalMoves disagree`);

  // Play it: the board shows the package's position after it, in a new variation.
  const variationsBefore = await page.locator("#moves .var").count();
  await page.click(`#b-over circle.target[data-cell="${pick.to}"]`);
  const after = await shown();
  const expected = c.play(start, mine.find((m) => m.to === pick.to).text, g.game);
  check(after === expected, `${g.name}: after the click ${after}, play() ${expected}`);
  check((await page.locator("#moves .var").count()) === variationsBefore + 1, `${g.name}: no variation opened`);

  // Export: the game in its own format and as PCN, with the played move.
  await page.click("#export-text");
  const text = await page.inputValue("#export");
  const reread = c.readGames(text)[0];
  check(reread.errors.length === 0 && reread.moves.length > 0, `${g.name}: the export does not read back: ${reread.errors[0]}`);
  // Xiangqi is written in the game's own notation (its Format tag), not the ICCS played.
  if (g.name !== "xiangqi") {
    const played = mine.find((m) => m.to === pick.to).text.replace(/[+#^∞]+$/, "");
    check(text.includes(`(1. ${played}`), `${g.name}: the export lacks the variation ${played}: ${text.slice(0, 300)}`);
  }
  await page.click("#export-pcn");
  const pcn = JSON.parse(await page.inputValue("#export"));
  check(Array.isArray(pcn) && pcn.length === 1, `${g.name}: PCN export is not one game`);

  // Undo: back to the start, the variation gone.
  await page.click("#undo");
  check((await shown()) === start, `${g.name}: undo shows ${await shown()}`);
  check((await page.locator("#moves .var").count()) === variationsBefore, `${g.name}: the variation stayed after undo`);
  await page.screenshot({ path: resolve(out, `play-${g.name}.png`), fullPage: true });
  await page.close();
}
await browser.close();
console.log(`${passed} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
