// Browser test of `cescacs view`: for a chess, a xiangqi and a C'escacs game, the
// page opened from file:// in headless Chromium shows, after each of PLIES presses of
// the right arrow key and when opened at `#game=1&ply=K`, the position that
// `cescacs replay --each` gives after K half-moves (the board's `data-position`).
// No request other than the page's own file, no console error; a screenshot of each
// game is saved to OUT.
//
// Usage: node test.mjs CESCACS OUT   (from this folder, after `npm install`)
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [cescacs, out = "out"] = process.argv.slice(2).map(p => resolve(p));
const root = resolve(import.meta.dirname, "../../..");
const PLIES = 10;
const games = [
  { name: "chess", file: "testdata/chess/python-chess/kasparov-deep-blue-1997.pgn", game: 1 },
  { name: "xiangqi", file: "testdata/xiangqi/real/walker8088-cchess/zhongpao_dui_liepao_black_first.pgn", game: 1 },
  { name: "cescacs", file: "testdata/ctl-pgn/real/2023-09-08.ctl-pgn", game: 1 },
];
mkdirSync(out, { recursive: true });

const run = args => execFileSync(cescacs, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let failures = 0, checked = 0;
const fail = message => { failures++; console.log("FAIL " + message); };

for (const g of games) {
  const file = resolve(root, g.file);
  const html = resolve(out, g.name + ".html");
  run(["view", file, "--game", String(g.game), "-o", html]);
  const expected = {};
  for (const line of run(["replay", "--each", file]).split("\n")) {
    const m = /^(\d+):(\d+): (.*)$/.exec(line);
    if (m && +m[1] === g.game) expected[+m[2]] = m[3];
  }
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const url = pathToFileURL(html).href;
  page.on("request", r => { if (r.url().split("#")[0] !== url) fail(`${g.name}: request ${r.url()}`); });
  page.on("console", m => { if (m.type() === "error") fail(`${g.name}: console error ${m.text()}`); });
  page.on("pageerror", e => fail(`${g.name}: page error ${e.message}`));
  const shown = () => page.getAttribute("#board", "data-position");
  const same = async (ply, how) => {
    checked++;
    const got = await shown();
    if (got !== expected[ply]) fail(`${g.name} ${how} ply ${ply}: shown ${got}, replay --each ${expected[ply]}`);
  };
  await page.goto(url);
  await same(0, "start");
  for (let ply = 1; ply <= PLIES; ply++) {
    await page.keyboard.press("ArrowRight");
    await same(ply, "ArrowRight");
  }
  await page.screenshot({ path: resolve(out, g.name + ".png"), fullPage: true });
  // Flipping turns the board, not the position.
  const firstMan = () => page.$eval("#b-men use", u => u.getAttribute("x") + "," + u.getAttribute("y"));
  const before = await firstMan();
  await page.keyboard.press("f");
  await same(PLIES, "flipped");
  if ((await firstMan()) === before) fail(`${g.name}: the board did not turn when flipped`);
  await page.keyboard.press("f");
  await page.keyboard.press("Home");
  await same(0, "Home");
  for (let ply = 0; ply <= PLIES; ply++) {
    await page.goto("about:blank");
    await page.goto(`${url}#game=1&ply=${ply}`);
    await same(ply, "#game=1&ply=");
  }
  await page.close();
}
// A page of several games: the list filters by player, and a row opens its game.
{
  const file = resolve(root, games[0].file);
  const html = resolve(out, "list.html");
  run(["view", file, "-o", html]);
  const page = await browser.newPage();
  page.on("console", m => { if (m.type() === "error") fail(`list: console error ${m.text()}`); });
  page.on("pageerror", e => fail(`list: page error ${e.message}`));
  await page.goto(pathToFileURL(html).href);
  const visible = () => page.$$eval("#rows tr", rows => rows.filter(r => r.style.display !== "none").length);
  checked++;
  if ((await visible()) !== 6) fail(`list: ${await visible()} rows, expected 6`);
  await page.fill("#filter", "nobody of that name");
  checked++;
  if ((await visible()) !== 0) fail("list: the filter kept rows");
  await page.fill("#filter", "deep blue");
  checked++;
  if ((await visible()) !== 6) fail("list: the filter dropped rows");
  await page.click("#rows tr:nth-child(2)");
  const start = run(["replay", "--each", file]).split("\n").find(l => l.startsWith("2:1: "));
  await page.keyboard.press("ArrowRight");
  checked++;
  const got = await page.getAttribute("#board", "data-position");
  if ("2:1: " + got !== start) fail(`list: game 2 ply 1 shown ${got}, replay --each ${start}`);
  await page.close();
}
await browser.close();
console.log(`${games.length} games, ${checked} positions checked, ${failures} failures`);
process.exit(failures ? 1 : 0);
