"""Type stubs of the native module (Rust, pyo3)."""

from __future__ import annotations

import os
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union, final

from ._types import Diagnostic, InputFormat, Notation, OutputFormat, StripItem

__version__: str

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

@final
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
    def errors(self) -> List[Diagnostic]: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...
    def to_pcn(self) -> Dict[str, Any]: ...
    def to_pcn_json(self) -> str: ...
    def to_string(
        self,
        format: OutputFormat,
        *,
        fan: Optional[bool] = None,
        minimal: Optional[bool] = None,
        notation: Optional[Notation] = None,
        strip: Union[str, Sequence[StripItem], None] = None,
        strict: Optional[bool] = None,
        json_lines: Optional[bool] = None,
    ) -> str: ...
    def _repr_svg_(self) -> Optional[str]: ...
    def _repr_html_(self) -> Optional[str]: ...
    def copy(self) -> GameEditor: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...

@final
class Headers:
    """The tags of one game (``read_headers``)."""

    @property
    def tags(self) -> Dict[str, str]: ...
    @property
    def file(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def errors(self) -> List[Diagnostic]: ...
    def get(self, name: str, default: Optional[str] = None) -> Optional[str]: ...

@final
class HeaderReader(Iterator[Headers]):
    """The headers of one input, lazily."""

    def __iter__(self) -> HeaderReader: ...
    def __next__(self) -> Headers: ...

@final
class GameReader(Iterator[Game]):
    """The games of one input, lazily."""

    @property
    def format(self) -> str: ...
    def __iter__(self) -> GameReader: ...
    def __next__(self) -> Game: ...
    def next_columns(self, n: int) -> List[List[Any]]:
        """Up to ``n`` games as eight columns: index, line, tags (lists of pairs), moves,
        result, final_position, errors, warnings."""

@final
class DecompressedFile:
    """The decompressed bytes of a file (``open_decompressed``)."""

    @property
    def name(self) -> str: ...
    def read(self, size: int = ...) -> bytes: ...
    def readable(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> DecompressedFile: ...
    def __exit__(self, *args: Any) -> bool: ...

@final
class Position:
    """A C'escacs position."""

    def __new__(cls, tlpd: Optional[str] = None) -> Position: ...
    def legal_moves(self) -> List[str]: ...
    def play(self, mv: str) -> None: ...
    def tlpd(self) -> str: ...
    def perft(self, depth: int) -> int: ...
    def _repr_svg_(self) -> str: ...

def open_decompressed(path: Union[str, os.PathLike[str]]) -> DecompressedFile: ...
def read_games(
    source: Union[str, os.PathLike[str], bytes, bytearray, IO[bytes], IO[str]],
    format: Optional[InputFormat] = None,
    name: Optional[str] = None,
    begin: int = 0,
    end: Optional[int] = None,
    index_base: int = 1,
    line_base: int = 1,
) -> GameReader: ...
def read_headers(
    source: Union[str, os.PathLike[str], bytes, bytearray, IO[bytes], IO[str]],
    format: Optional[InputFormat] = None,
    name: Optional[str] = None,
) -> HeaderReader: ...
def _game(place: Tuple[str, str, int, int, int, int], origin: Tuple[Any, ...]) -> Game: ...
def convert(
    data: Union[str, bytes],
    to: OutputFormat,
    from_: Optional[InputFormat] = None,
    *,
    fan: Optional[bool] = None,
    minimal: Optional[bool] = None,
    notation: Optional[Notation] = None,
    strip: Union[str, Sequence[StripItem], None] = None,
    strict: Optional[bool] = None,
    json_lines: Optional[bool] = None,
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
) -> Any: ...

@final
class ChunkCutter(Iterator[Tuple[bytes, int, int, int]]):
    """Cuts a binary stream into chunks of whole games (Spark staging)."""

    def __new__(cls, source: IO[bytes], name: str, chunk_bytes: int) -> ChunkCutter: ...
    def __iter__(self) -> ChunkCutter: ...
    def __next__(self) -> Tuple[bytes, int, int, int]: ...

@final
class GameEditor:
    """An editable copy of a game (``Game.copy()``)."""

    @property
    def tags(self) -> Dict[str, str]: ...
    @property
    def moves(self) -> List[str]: ...
    def set_tag(self, name: str, value: str) -> None: ...
    def remove_tag(self, name: str) -> bool: ...
    def add_comment(self, ply: int, text: str) -> None: ...
    def truncate(self, plies: int) -> None: ...
    def to_string(
        self,
        format: OutputFormat,
        *,
        fan: Optional[bool] = None,
        minimal: Optional[bool] = None,
        notation: Optional[Notation] = None,
        strip: Union[str, Sequence[StripItem], None] = None,
        strict: Optional[bool] = None,
        json_lines: Optional[bool] = None,
    ) -> str: ...
    def game(self) -> Game: ...
