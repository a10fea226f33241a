// Entry point: loads cescacs_wasm.wasm beside this file (node: from disk; a page: by
// fetch) and exports the API. `const c = await import("cescacs-wasm")`.
import { createApi, CescacsError } from "./core.js";

const url = new URL("./cescacs_wasm.wasm", import.meta.url);
let bytes;
if (typeof process !== "undefined" && process.versions && process.versions.node) {
  const { readFile } = await import("node:fs/promises");
  bytes = await readFile(url);
} else {
  bytes = await (await fetch(url)).arrayBuffer();
}
const api = createApi(await WebAssembly.compile(bytes));

export { CescacsError, createApi };
export const { perft, legalMoves, moveTable, play, show, readGames, convert } = api;
