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
#: Which stage found a problem: ``game`` (reading or replaying the record), ``read``
#: (the stream could not be read further), ``oversized``, ``no-boundary``, ``unclosed``
#: (the splitter), ``file`` (a file that could not be read at all, game 0).
DiagnosticCode = Literal["game", "read", "oversized", "no-boundary", "unclosed", "file"]


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
