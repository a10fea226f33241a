//! Diagnostic codes: the stable name of each kind of problem a diagnostic reports
//! ([`cescacs_batch::GameDiagnostic::code`]), so that a program filters problems
//! without matching their messages. Each code comes from the error type that found the
//! problem (the splitter's `Problem`, `chess_pgn::GameError`, `ctl_pgn::Code`,
//! `xiangqi_pgn::ReadError`, …), never from its text. docs/diagnostic-codes.md holds
//! the same table (a test compares them).

/// Every diagnostic code with what it means, in the order of docs/diagnostic-codes.md.
pub const DIAGNOSTIC_CODES: &[(&str, &str)] = &[
    // The splitter and the input layer (cescacs-batch).
    (
        "read",
        "the input could not be read further (a damaged compressed stream, a failing file)",
    ),
    ("oversized", "a game over the size limit, skipped"),
    (
        "no-boundary",
        "no game boundary within the limit: the rest of the input is not read",
    ),
    (
        "unclosed",
        "a `{` comment, `(` variation or JSON string still open at the next game",
    ),
    (
        "trailing-text",
        "text after the last game that holds no game",
    ),
    (
        "file",
        "a file that could not be read at all (binary, empty, format unknown)",
    ),
    (
        "error",
        "an error of a per-game function outside the readers",
    ),
    // The converter, whatever the game.
    (NO_GAME, "the text holds no game"),
    (
        BOUNDARY,
        "the splitter and the reader disagree on where a game ends",
    ),
    (MORE_GAMES, "more games in this input than the one read"),
    (TRUNCATED, "the input ends in the middle of this game"),
    (OUTPUT_ONLY, "a format that is written, not read"),
    (WRITE, "the game cannot be written in the target format"),
    (
        DROPPED,
        "the target format cannot carry an item of the game: dropped or changed",
    ),
    (
        RESULT_DISAGREES,
        "with --fix-results: the result marker and the final position disagree",
    ),
    // Classic chess (chess-pgn).
    (
        "chess.syntax",
        "text that is no move, number, result, annotation or tag pair",
    ),
    (
        "chess.illegal-move",
        "a move that is illegal, ambiguous or names no man",
    ),
    (
        "chess.tag",
        "a tag read with a change (repeated, misspelt name, tab or line break)",
    ),
    (
        "chess.result",
        "the result marker, Result tag and final position disagree, or no marker",
    ),
    (
        "chess.nag",
        "a NAG dropped (out of range, `$0`, before any move)",
    ),
    ("chess.variation", "a variation dropped or unbalanced"),
    ("chess.too-deep", "variations nested deeper than the limit"),
    (
        "chess.too-large",
        "a game, token or tag section over its limit",
    ),
    ("chess.escape", "a `%` escape line dropped"),
    (
        "chess.spelling",
        "a spelling the model does not keep (an en passant marker)",
    ),
    ("chess.variant", "a Variant tag this reader does not play"),
    ("chess.other-game", "a Game tag naming another game"),
    ("chess.fen", "a FEN tag that is no legal position"),
    ("chess.setup", "SetUp \"1\" without a FEN tag"),
    ("chess.read", "the game's bytes could not be read"),
    // Xiangqi (xiangqi-pgn).
    ("xiangqi.syntax", "text the reader cannot take"),
    (
        "xiangqi.illegal-move",
        "a move that is no move, not legal, or ambiguous",
    ),
    ("xiangqi.fen", "a FEN tag that is no valid position"),
    (
        "xiangqi.other-game",
        "a Game or Variant tag naming another game or a variant",
    ),
    (
        "xiangqi.encoding",
        "the file's encoding was guessed with little evidence",
    ),
    (
        "xiangqi.junk",
        "text outside a game or after its result, skipped",
    ),
    (
        "xiangqi.result",
        "the result token, Result tag and final position disagree, or an unknown Result value",
    ),
    (
        "xiangqi.fen-form",
        "a FEN read with a tolerated irregularity (missing fields, an odd placement)",
    ),
    (
        "xiangqi.format-tag",
        "a Format tag that contradicts the movetext's notation",
    ),
    (
        "xiangqi.ranks",
        "coordinates read with ranks 1..10 (the Fairy-Stockfish dialect)",
    ),
    (
        "xiangqi.side-flipped",
        "a FEN side to move that contradicts the first move, flipped",
    ),
    (
        "xiangqi.tandem-order",
        "a soldier ordinal whose reading depends on the disputed two-file scan order",
    ),
    (
        "xiangqi.wxf-dialect",
        "a WXF move read in the pyffish dialect (ordinal and file)",
    ),
    ("xiangqi.nag", "an annotation before any move, dropped"),
    ("xiangqi.escape", "a `%` escape line dropped"),
    (
        "xiangqi.variation",
        "a variation dropped, unclosed or misplaced, or a result inside one",
    ),
    (
        "xiangqi.too-deep",
        "variations nested deeper than the limit",
    ),
    (
        "xiangqi.suppressed",
        "more warnings than the reader reports: counted, not shown",
    ),
    // C'escacs (ctl-pgn's `Code`).
    ("ctl.syntax", "the grammar did not match"),
    (
        "ctl.structure",
        "unbalanced or misplaced brackets, numbering that cannot be followed",
    ),
    ("ctl.too-deep", "variations nested deeper than the limit"),
    (
        "ctl.too-large",
        "a game of more moves, comments, variations or tags than the limit",
    ),
    (
        "ctl.letter",
        "a piece letter not valid under the record's letters",
    ),
    ("ctl.redefine", "a bad Redefine tag"),
    ("ctl.tag", "a missing or wrong Variant tag"),
    (
        "ctl.start-position",
        "a start position (TLPD tag) that cannot be read",
    ),
    ("ctl.spelling", "a tolerated spelling that was normalised"),
    (
        "ctl.numbering",
        "a move number that does not follow the previous one",
    ),
    ("ctl.move-syntax", "a move text the rules cannot read"),
    ("ctl.illegal-move", "a move that resolves to no legal move"),
    (
        "ctl.check-marker",
        "a check marker that differs from the position reached",
    ),
    ("ctl.missing-end", "no result line, or no `:` end mark"),
    (
        "ctl.result",
        "the result line or tag contradicts the game or each other",
    ),
    (
        "ctl.variation",
        "a variation that replaces no move of its line",
    ),
    (ENCODING, "a record that is not UTF-8"),
    (CTL_REPLAY, "a record that could not be replayed"),
    // PCN.
    (PCN_JSON, "the text is not JSON"),
    (
        PCN_TOO_LARGE,
        "a document over the size a PCN reader of this toolkit accepts",
    ),
    (PCN_INVALID, "a JSON document that is not a valid PCN game"),
    (PCN_REPLAY, "a move of the document that cannot be replayed"),
    (
        PCN_CACHE,
        "the document's cache disagrees with the replay (recomputed)",
    ),
    (
        PCN_DECODE,
        "the document cannot become the game model of its board",
    ),
    (PCN_LOSS, "what the game model cannot carry of the document"),
];

/// The text holds no game.
pub(crate) const NO_GAME: &str = "no-game";
/// The splitter and the reader disagree on game boundaries.
pub(crate) const BOUNDARY: &str = "boundary";
/// More games in the input than the one read.
pub(crate) const MORE_GAMES: &str = "more-games";
/// The input ends in the middle of a game.
pub(crate) const TRUNCATED: &str = "truncated";
/// An output-only format given as input.
pub(crate) const OUTPUT_ONLY: &str = "output-only";
/// A game that cannot be written.
pub(crate) const WRITE: &str = "write";
/// What a target format cannot carry.
pub(crate) const DROPPED: &str = "dropped";
/// `--fix-results` found a result marker that the final position contradicts.
pub(crate) const RESULT_DISAGREES: &str = "result-disagrees";
/// A CTL-PGN record that is not UTF-8.
pub(crate) const ENCODING: &str = "ctl.encoding";
/// A CTL-PGN record that could not be replayed.
pub(crate) const CTL_REPLAY: &str = "ctl.replay";
/// Not JSON.
pub(crate) const PCN_JSON: &str = "pcn.json";
/// A PCN document over the cap.
pub(crate) const PCN_TOO_LARGE: &str = "pcn.too-large";
/// Not a valid PCN document.
pub(crate) const PCN_INVALID: &str = "pcn.invalid";
/// A PCN move that cannot be replayed.
pub(crate) const PCN_REPLAY: &str = "pcn.replay";
/// A stale PCN cache.
pub(crate) const PCN_CACHE: &str = "pcn.cache";
/// A PCN document that cannot become a game model.
pub(crate) const PCN_DECODE: &str = "pcn.decode";
/// What a game model cannot carry of a PCN document.
pub(crate) const PCN_LOSS: &str = "pcn.loss";
