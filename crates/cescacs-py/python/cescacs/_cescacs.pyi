"""Type stubs of the native module (Rust, pyo3)."""

from __future__ import annotations

import os
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

class CescacsError(Exception):
    """Every error the package raises. Messages are located as the CLI's
    (``file:line:col: game N: error: ...``) where there is a place to name."""

class ParseError(CescacsError, ValueError):
    """A game record that cannot be read, replayed or written (``convert`` of a bad
    game, ``Game.to_string``, a bad TLPD or move)."""

class InputError(CescacsError, OSError):
    """An input that cannot be read at all: missing or unreadable, binary data, a
    format that cannot be told, a stream that fails before its first game."""

class OptionError(CescacsError, ValueError, TypeError):
    """An argument the function cannot take: an unknown format, option or framing, a
    bad option value, a perft depth beyond the limit, a source of the wrong type."""

class Game:
    """One game, read and replayed."""

    @property
    def format(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def tags(self) -> Dict[str, str]: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def final_position(self) -> Optional[str]: ...
    @property
    def errors(self) -> List[str]: ...
    @property
    def warnings(self) -> List[str]: ...
    def to_pcn(self) -> Dict[str, Any]: ...
    def to_pcn_json(self) -> str: ...
    def to_string(
        self,
        format: str,
        *,
        fan: bool = ...,
        minimal: bool = ...,
        notation: str = ...,
        strip: Union[str, List[str]] = ...,
        strict: bool = ...,
        json_lines: bool = ...,
    ) -> str: ...
    def _repr_svg_(self) -> Optional[str]: ...
    def _repr_html_(self) -> Optional[str]: ...

class GameReader(Iterator[Game]):
    """The games of one input, lazily."""

    @property
    def format(self) -> str: ...
    def __iter__(self) -> GameReader: ...
    def __next__(self) -> Game: ...
    def next_columns(self, n: int) -> List[List[Any]]:
        """Up to ``n`` games as eight columns: index, line, tags (lists of pairs), moves,
        result, final_position, errors, warnings."""

class DecompressedFile:
    """The decompressed bytes of a file (``open_decompressed``)."""

    @property
    def name(self) -> str: ...
    def read(self, size: int = -1) -> bytes: ...
    def readable(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> DecompressedFile: ...
    def __exit__(self, *args: Any) -> bool: ...

class Position:
    """A C'escacs position."""

    def __init__(self, tlpd: Optional[str] = None) -> None: ...
    def legal_moves(self) -> List[str]: ...
    def play(self, mv: str) -> None: ...
    def tlpd(self) -> str: ...
    def perft(self, depth: int) -> int: ...
    def _repr_svg_(self) -> str: ...

def open_decompressed(path: Union[str, os.PathLike[str]]) -> DecompressedFile: ...
def read_games(
    source: Union[str, os.PathLike[str], bytes, bytearray, IO[bytes]],
    format: Optional[str] = None,
    name: Optional[str] = None,
    begin: int = 0,
    end: Optional[int] = None,
    index_base: int = 1,
    line_base: int = 1,
) -> GameReader: ...
class Selected:
    """The games of one input that pass :func:`select`'s filters, lazily, as text."""

    def __iter__(self) -> Iterator[str]: ...
    def __next__(self) -> str: ...
    @property
    def errors(self) -> List[str]: ...

def select(
    source: Union[str, os.PathLike[str], bytes, bytearray, IO[bytes]],
    format: Optional[str] = None,
    name: Optional[str] = None,
    *,
    player: Optional[str] = None,
    event: Optional[str] = None,
    site: Optional[str] = None,
    tags: List[str] = ...,
    criteria: Optional[Union[str, os.PathLike[str]]] = None,
    exact: bool = False,
    any: bool = False,
    result: Optional[str] = None,
    position: Optional[str] = None,
    fen_patterns: List[str] = ...,
    positions: Optional[Union[str, os.PathLike[str]]] = None,
    material: List[str] = ...,
    min_plies: Optional[int] = None,
    max_plies: Optional[int] = None,
    mate: bool = False,
    stalemate: bool = False,
) -> Selected: ...
def convert(
    data: Union[str, bytes],
    to: str,
    from_: Optional[str] = None,
    *,
    fan: bool = ...,
    minimal: bool = ...,
    notation: str = ...,
    strip: Union[str, List[str]] = ...,
    strict: bool = ...,
    json_lines: bool = ...,
) -> str: ...
def detect(name: str, head: bytes) -> Optional[str]: ...
def framing(format: str, name: str) -> str: ...
def scan_range(path: Union[str, os.PathLike[str]], start: int, stop: int, framing: str) -> Tuple[int, int, int, int, bool]: ...
def scan_source(
    opener: Callable[[], IO[bytes]], size: int, start: int, stop: int, framing: str, name: str
) -> Tuple[int, int, int, int, bool]: ...
def read_arrow(
    source: Union[str, os.PathLike[str], bytes, IO[bytes]],
    format: Optional[str] = None,
    name: Optional[str] = None,
    begin: int = 0,
    end: Optional[int] = None,
    index_base: int = 1,
    line_base: int = 1,
    batch_rows: int = 65536,
    columns: List[str] = ...,
) -> Any: ...
def seekable_frames(
    source: Union[str, Any], size: Optional[int] = None, name: Optional[str] = None
) -> Optional[Tuple[str, List[Tuple[int, int]], int]]: ...

class FramedFile:
    def __init__(
        self, source: Union[str, Any], table: Tuple[str, List[Tuple[int, int]], int], size: Optional[int] = None
    ) -> None: ...
    def read(self, size: int = -1) -> bytes: ...
    def seek(self, offset: int, whence: int = 0) -> int: ...
    def tell(self) -> int: ...
    def readable(self) -> bool: ...
    def seekable(self) -> bool: ...
    def close(self) -> None: ...
