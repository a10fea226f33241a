"""The board protocol the three games share (issue 29): `cescacs.Board` for chess and
xiangqi and `cescacs.Position` for C'escacs both satisfy it, so code written against
`BoardLike` runs on any of them. Moves are strings: UCI or SAN (chess), ICCS or any
xiangqi notation, CTL-AN (C'escacs)."""

from __future__ import annotations

from typing import List, Protocol, runtime_checkable


@runtime_checkable
class BoardLike(Protocol):
    """A position to play moves on."""

    def legal_moves(self) -> List[str]:
        """Every legal move, sorted."""
        ...

    def push(self, mv: str) -> None:
        """Plays a legal move; raises ParseError for any other."""
        ...

    def fen(self) -> str:
        """FEN (chess, xiangqi) or TLPD (C'escacs)."""
        ...

    def is_check(self) -> bool:
        """The side to move is in check."""
        ...

    def is_checkmate(self) -> bool:
        """The side to move is checkmated."""
        ...

    def is_stalemate(self) -> bool:
        """The side to move has no legal move and is not in check."""
        ...

    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree ``depth`` plies deep."""
        ...

    def _repr_svg_(self) -> str:
        """The board as SVG."""
        ...
