"""Types of the package: the names a type checker knows (formats, notations, strip
items) and :class:`Diagnostic`, the structured form of a located message."""

from __future__ import annotations

from typing import Any, Literal, Tuple

#: Formats a game can be read from.
InputFormat = Literal["ctl-pgn", "pgn", "xiangqi-pgn", "pcn"]
#: Formats a game can be written in (``xiangqi-xml`` is an output format only).
OutputFormat = Literal["ctl-pgn", "pgn", "xiangqi-pgn", "pcn", "xiangqi-xml"]
#: Move notations of the targets: ``san``, ``lan``, ``uci`` for ``pgn``;
#: ``chinese``, ``wxf``, ``iccs`` for ``xiangqi-pgn``.
Notation = Literal["san", "lan", "uci", "chinese", "wxf", "iccs"]
#: What ``strip=`` removes, as ``cescacs convert --strip``.
StripItem = Literal["comments", "variations", "nags", "clock", "tags"]
#: How bad a diagnostic is.
SeverityName = Literal["error", "warning"]
#: What kind of problem a diagnostic reports, named by the error type that found it
#: (the table with meanings: docs/diagnostic-codes.md; the same codes in Rust:
#: ``cescacs_convert::DIAGNOSTIC_CODES``).
DiagnosticCode = Literal[
    "read", "oversized", "no-boundary", "unclosed", "trailing-text", "file", "error",
    "no-game", "boundary", "more-games", "truncated", "output-only", "write",
    "dropped", "result-disagrees", "chess.syntax", "chess.illegal-move", "chess.tag", "chess.result",
    "chess.nag", "chess.variation", "chess.too-deep", "chess.too-large",
    "chess.escape", "chess.spelling", "chess.variant", "chess.other-game", "chess.fen",
    "chess.setup", "chess.read", "xiangqi.syntax", "xiangqi.illegal-move",
    "xiangqi.fen", "xiangqi.other-game", "xiangqi.encoding", "xiangqi.junk",
    "xiangqi.result", "xiangqi.fen-form", "xiangqi.format-tag", "xiangqi.ranks",
    "xiangqi.side-flipped", "xiangqi.tandem-order", "xiangqi.wxf-dialect",
    "xiangqi.nag", "xiangqi.escape", "xiangqi.variation", "xiangqi.too-deep",
    "xiangqi.suppressed", "ctl.syntax",
    "ctl.structure", "ctl.too-deep", "ctl.too-large", "ctl.letter", "ctl.redefine",
    "ctl.tag", "ctl.start-position", "ctl.spelling", "ctl.numbering",
    "ctl.move-syntax", "ctl.illegal-move", "ctl.check-marker", "ctl.missing-end",
    "ctl.result", "ctl.variation", "ctl.encoding", "ctl.replay", "pcn.json",
    "pcn.too-large", "pcn.invalid", "pcn.replay", "pcn.cache", "pcn.decode",
    "pcn.loss",
]


class Diagnostic(str):
    """One located problem: a ``str`` equal to the line the ``cescacs`` command prints
    (``file:line:col: game N: error: message``), with its parts as attributes, so that
    lists of them print, join and compare as the plain strings did. ``line`` and
    ``column`` are 0 and ``game`` is 0 for a problem of a whole file."""

    file: str
    line: int
    column: int
    game: int
    severity: SeverityName
    code: DiagnosticCode
    message: str

    def __new__(
        cls,
        text: str,
        file: str,
        line: int,
        column: int,
        game: int,
        severity: SeverityName,
        code: DiagnosticCode,
        message: str,
    ) -> "Diagnostic":
        self = super().__new__(cls, text)
        self.file = file
        self.line = line
        self.column = column
        self.game = game
        self.severity = severity
        self.code = code
        self.message = message
        return self

    def __reduce__(self) -> Tuple[Any, ...]:
        return (
            Diagnostic,
            (
                str(self),
                self.file,
                self.line,
                self.column,
                self.game,
                self.severity,
                self.code,
                self.message,
            ),
        )
