// Game._repr_html_ as Jupyter shows it (the viewer in a srcdoc iframe): the step
// buttons and the arrow keys work in the browser alone, the shown position after each
// step equals python-chess's, no network request, no console error.
//   node jupyter.mjs DIR   (DIR holds jupyter.html and jupyter-expected.json)
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const dir = resolve(process.argv[2]);
const expected = JSON.parse(readFileSync(`${dir}/jupyter-expected.json`, "utf8"));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let failures = 0;
let checks = 0;
const check = (ok, what) => { checks++; if (!ok) { failures++; console.log(`FAIL ${what}`); } };
try {
  const page = await browser.newPage();
  const requests = [];
  const errors = [];
  page.on("request", r => { if (!/^(file|about|data):/.test(r.url())) requests.push(r.url()); });
  page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", e => errors.push(String(e)));
  await page.goto(`file://${dir}/jupyter.html`);
  const frame = page.frameLocator("iframe");
  const shown = () => frame.locator("#board").getAttribute("data-position");
  check((await shown()) === expected[0], "start position");
  for (let ply = 1; ply < expected.length; ply++) {
    await frame.locator("#next").click();
    check((await shown()) === expected[ply], `after ${ply} plies (button)`);
  }
  await frame.locator("#board").click();
  await page.keyboard.press("Home");
  for (let ply = 1; ply < expected.length; ply++) {
    await page.keyboard.press("ArrowRight");
    check((await shown()) === expected[ply], `after ${ply} plies (arrow key)`);
  }
  await page.screenshot({ path: `${dir}/jupyter.png` });
  check(requests.length === 0, `no network request (${requests})`);
  check(errors.length === 0, `no console error (${errors})`);
  console.log(`jupyter view: ${checks - failures} passed, ${failures} failed`);
} finally {
  await browser.close();
}
process.exit(failures ? 1 : 0);
