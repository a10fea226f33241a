/** The game a position or move belongs to; xiangqi moves are written in WXF unless a
 * notation follows (`xiangqi:iccs`, `xiangqi:chinese`). Default: `cescacs`. */
export type GameName = "cescacs" | "chess" | "xiangqi" | "xiangqi:wxf" | "xiangqi:iccs" | "xiangqi:chinese";

/** An error the module reported: a bad position, move, game or argument, with the CLI's message. */
export class CescacsError extends Error {}

/** One game read and replayed. */
export interface GameRecord {
  /** The format it was read as (`ctl-pgn`, `pgn`, `xiangqi-pgn`, `pcn`). */
  format: string;
  /** 1-based number of the game in the text. */
  index: number;
  /** 1-based line of its first byte. */
  line: number;
  /** Tag pairs (a later tag of the same name wins). */
  tags: Record<string, string>;
  /** Main-line moves as written. */
  moves: string[];
  /** TLPD or FEN after each main-line half-move (empty if the game cannot be replayed). */
  positions: string[];
  /** TLPD or FEN after the main line; null for a bad game. */
  finalPosition: string | null;
  /** `1-0`, `0-1`, `1/2-1/2`, `*`, or null. */
  result: string | null;
  /** Located error messages, as the CLI prints them; empty for a valid game. */
  errors: string[];
  /** Located warning messages. */
  warnings: string[];
}

/** A legal move with the cells it joins (the viewer's cell numbering). */
export interface TableMove { text: string; from: number; to: number; }

/** A position as the board shows it. */
export interface Shown { position: string; board: string; check: number | null; mate: boolean; }

/** Options of `convert` (those of `cescacs convert`). */
export interface ConvertOptions {
  from?: string; name?: string; fan?: boolean; strict?: boolean; jsonLines?: boolean;
  minimal?: boolean; notation?: string; strip?: string | string[];
}

/** Leaf nodes `depth` plies under a C'escacs position (TLPD; the initial one by default). */
export function perft(depth: number, position?: string | null): number;
/** Every legal move, sorted: CTL-AN with check markers, SAN, or xiangqi notation. */
export function legalMoves(position: string | null, game?: GameName): string[];
/** The legal moves with their cells, for a board. */
export function moveTable(position: string | null, game?: GameName): TableMove[];
/** The position (TLPD or FEN) after `move`. */
export function play(position: string | null, move: string, game?: GameName): string;
/** How a position is shown: board letters per cell, check, mate. */
export function show(position: string | null, game?: GameName): Shown;
/** Every game of a text (format detected unless given). */
export function readGames(text: string, format?: string | null, options?: { name?: string }): GameRecord[];
/** Every game of a text converted to format `to`, framed as `cescacs convert` frames it. */
export function convert(text: string, to: string, options?: ConvertOptions): string;
/** The same API over another compiled copy of the module. */
export function createApi(module: WebAssembly.Module): {
  perft: typeof perft; legalMoves: typeof legalMoves; moveTable: typeof moveTable; play: typeof play;
  show: typeof show; readGames: typeof readGames; convert: typeof convert;
};
