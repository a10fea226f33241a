// The glue between JavaScript and the WebAssembly module of crates/cescacs-wasm (its four
// exports, src/ffi.rs), shipped as core.js in the npm package (cargo xtask wasm):
// a request is JSON written into the module's memory, the answer JSON read back. No
// imports, no generated code. Used as is by index.js (node, pages) and by the viewer's
// play mode, which inlines it with the module in base64.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An error the module reported (a bad position, move, game or argument): the CLI's message. */
export class CescacsError extends Error {
  constructor(message) {
    super(message);
    this.name = "CescacsError";
  }
}

/**
 * The API over a compiled module (a WebAssembly.Module). A trap (a bug: Rust panics
 * abort in WebAssembly) becomes a thrown Error carrying the panic message, and the
 * next call runs in a fresh instance: the page lives on.
 */
export function createApi(module) {
  let exports = new WebAssembly.Instance(module, {}).exports;

  function call(fn, args) {
    const request = encoder.encode(JSON.stringify({ fn, args }));
    let answer;
    try {
      const ptr = exports.cescacs_request(request.length);
      new Uint8Array(exports.memory.buffer, ptr, request.length).set(request);
      const len = exports.cescacs_call();
      const at = exports.cescacs_answer();
      answer = JSON.parse(decoder.decode(new Uint8Array(exports.memory.buffer, at, len)));
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      let message = e.message;
      try {
        const len = exports.cescacs_panic();
        const at = exports.cescacs_answer();
        if (len > 0) message = decoder.decode(new Uint8Array(exports.memory.buffer, at, len));
      } catch {
        // The message is lost; the trap's own is kept.
      }
      exports = new WebAssembly.Instance(module, {}).exports;
      throw new Error(`cescacs-wasm internal error (a bug, please report it): ${message}`);
    }
    if ("error" in answer) throw new CescacsError(answer.error);
    return answer.ok;
  }

  const opt = (v) => (v === undefined ? null : v);
  return {
    perft: (depth, position) => call("perft", [depth, opt(position)]),
    legalMoves: (position, game) => call("legalMoves", [opt(position), opt(game)]),
    moveTable: (position, game) => call("moveTable", [opt(position), opt(game)]),
    play: (position, move, game) => call("play", [opt(position), move, opt(game)]),
    show: (position, game) => call("show", [opt(position), opt(game)]),
    readGames: (text, format, options) => call("readGames", [text, opt(format), opt(options)]),
    convert: (text, to, options) => call("convert", [text, to, opt(options)]),
  };
}
