//! `Board`: a chess or xiangqi position to play moves on, beside C'escacs's `Position`,
//! with the same methods (`legal_moves`, `push`, `fen`, `is_check`, `is_checkmate`,
//! `is_stalemate`, `perft`, `_repr_svg_`) so code is written once for the three. The
//! rules are the rule crates'; move reading and FEN writing are `cescacs-convert`'s.

use crate::errors::Fail;
use crate::{arg, opt_arg, unpanicked};
use cescacs_convert::TreePosition;
use cescacs_convert::cozy_chess::{self, GameStatus};
use cescacs_convert::{CastlingStyle, parse_fen};
use pyo3::prelude::*;
use std::sync::{Mutex, MutexGuard};

#[derive(Clone)]
enum Inner {
    Chess {
        board: cozy_chess::Board,
        /// The exact halfmove clock (cozy-chess caps its own).
        clock: u32,
        chess960: bool,
        style: CastlingStyle,
    },
    Xiangqi(xiangqi::Position),
}

/// A chess or xiangqi position. Usable from any thread (the position is behind a lock).
#[pyclass(frozen, module = "cescacs", name = "Board")]
pub(crate) struct Board {
    inner: Mutex<Inner>,
}

impl Board {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        match self.inner.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }

    fn chess(fen: &str, chess960: bool) -> Result<Inner, Fail> {
        let board = parse_fen(fen).map_err(|e| Fail::Parse(format!("bad FEN {fen:?}: {e}")))?;
        let clock = fen
            .split_whitespace()
            .nth(4)
            .and_then(|c| c.parse().ok())
            .unwrap_or(board.halfmove_clock() as u32);
        let style = CastlingStyle::of_fen(fen).unwrap_or(CastlingStyle::XFen);
        Ok(Inner::Chess {
            board,
            clock,
            chess960,
            style,
        })
    }

    fn xiangqi(fen: &str) -> Result<Inner, Fail> {
        xiangqi::Position::from_fen(fen)
            .map(Inner::Xiangqi)
            .map_err(|e| Fail::Parse(format!("bad FEN {fen:?}: {e}")))
    }
}

/// A position of a game's move tree as the board object for it: `Board` for chess and
/// xiangqi, `Position` for C'escacs.
pub(crate) fn tree_board(py: Python<'_>, position: &TreePosition) -> PyResult<PyObject> {
    let inner = match position {
        TreePosition::Cescacs(p) => {
            let object = crate::Position {
                position: Mutex::new(p.clone()),
            }
            .into_pyobject(py)?;
            return Ok(object.into_any().unbind());
        }
        TreePosition::Chess {
            board,
            clock,
            style,
            chess960,
        } => Inner::Chess {
            board: board.clone(),
            clock: *clock,
            chess960: *chess960,
            style: *style,
        },
        TreePosition::Xiangqi(p) => Inner::Xiangqi(p.clone()),
    };
    let object = Board {
        inner: Mutex::new(inner),
    }
    .into_pyobject(py)?;
    Ok(object.into_any().unbind())
}

#[pymethods]
impl Board {
    /// The start position of `game` ("chess" or "xiangqi"), or the one `fen` gives.
    /// `chess960` reads and writes castling as king-takes-rook in UCI.
    #[new]
    #[pyo3(signature = (fen=None, game="chess", chess960=false))]
    fn new(fen: Option<&Bound<'_, PyAny>>, game: &str, chess960: bool) -> PyResult<Board> {
        let fen: Option<String> = opt_arg(fen, "fen")?;
        let inner = match game {
            "chess" => {
                let fen = fen.unwrap_or_else(|| cozy_chess::Board::default().to_string());
                Board::chess(&fen, chess960)?
            }
            "xiangqi" => match fen {
                None => Inner::Xiangqi(xiangqi::Position::initial()),
                Some(f) => Board::xiangqi(&f)?,
            },
            _ => {
                return Err(Fail::Option(format!(
                    "game {game:?}: expected \"chess\" or \"xiangqi\" (C'escacs: cescacs.Position)"
                ))
                .into());
            }
        };
        Ok(Board {
            inner: Mutex::new(inner),
        })
    }
    /// "chess" or "xiangqi".
    #[getter]
    fn game(&self) -> &'static str {
        match &*self.lock() {
            Inner::Chess { .. } => "chess",
            Inner::Xiangqi(_) => "xiangqi",
        }
    }
    /// Every legal move, sorted: UCI (chess) or ICCS (xiangqi).
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        let inner = self.lock().clone();
        Ok(unpanicked("legal_moves", || {
            Ok(match &inner {
                Inner::Chess {
                    board, chess960, ..
                } => cescacs_convert::chess_legal_moves(board, *chess960),
                Inner::Xiangqi(p) => cescacs_convert::xiangqi_legal_moves(p),
            })
        })?)
    }
    /// Plays a move given in UCI or SAN (chess), ICCS or any xiangqi notation; raises
    /// ParseError if it is not a legal move here.
    fn push(&self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let text: String = arg(mv, "move")?;
        let mut guard = self.lock();
        let inner = &mut *guard;
        unpanicked(&text, || {
            let illegal = || Fail::Parse(format!("{text:?}: not a legal move here"));
            match inner {
                Inner::Chess {
                    board,
                    clock,
                    chess960,
                    ..
                } => {
                    let m =
                        cescacs_convert::chess_move(board, &text, *chess960).ok_or_else(illegal)?;
                    board.play_unchecked(m);
                    *clock = if board.halfmove_clock() == 0 {
                        0
                    } else {
                        *clock + 1
                    };
                }
                Inner::Xiangqi(p) => {
                    let m = cescacs_convert::xiangqi_move(p, &text).ok_or_else(illegal)?;
                    p.play(m);
                }
            }
            Ok(())
        })?;
        Ok(())
    }
    /// The position as FEN (chess: as python-chess's `board.fen()`).
    fn fen(&self) -> String {
        match &*self.lock() {
            Inner::Chess {
                board,
                clock,
                style,
                ..
            } => cescacs_convert::chess_fen(board, *clock, *style),
            Inner::Xiangqi(p) => p.to_fen(),
        }
    }
    /// The side to move is in check.
    fn is_check(&self) -> bool {
        match &*self.lock() {
            Inner::Chess { board, .. } => !board.checkers().is_empty(),
            Inner::Xiangqi(p) => p.is_check(),
        }
    }
    /// The side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        match &*self.lock() {
            Inner::Chess { board, .. } => board.status() == GameStatus::Won,
            Inner::Xiangqi(p) => p.status() == xiangqi::Status::Checkmate,
        }
    }
    /// The side to move has no legal move and is not in check (in xiangqi that loses,
    /// but it is still told apart from mate).
    fn is_stalemate(&self) -> bool {
        match &*self.lock() {
            Inner::Chess { board, .. } => {
                board.checkers().is_empty() && !board.generate_moves(|_| true)
            }
            Inner::Xiangqi(p) => p.status() == xiangqi::Status::Stalemate,
        }
    }
    /// Leaves of the legal move tree `depth` plies deep, counted with the GIL released;
    /// a depth above the limit raises OptionError.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth: u32 = arg(depth, "depth")?;
        let inner = self.lock().clone();
        let n = py.allow_threads(move || {
            unpanicked("perft", || {
                match &inner {
                    Inner::Chess { board, .. } => cescacs_convert::chess_perft(board, depth),
                    Inner::Xiangqi(p) => xiangqi::try_perft(p, depth, 1),
                }
                .map_err(|e| Fail::Option(e.to_string()))
            })
        })?;
        Ok(n)
    }
    /// A copy to play on without changing this one.
    fn copy(&self) -> Board {
        Board {
            inner: Mutex::new(self.lock().clone()),
        }
    }
    /// The board as SVG, captioned with the FEN.
    fn _repr_svg_(&self) -> PyResult<String> {
        let fen = self.fen();
        let svg = match &*self.lock() {
            Inner::Chess { .. } => cescacs_convert::chess_svg(&fen, None),
            Inner::Xiangqi(_) => cescacs_convert::xiangqi_svg(&fen, None),
        };
        Ok(svg.map_err(|e| Fail::Parse(format!("{fen}: {e}")))?)
    }
    fn __repr__(&self) -> String {
        format!("cescacs.Board({:?}, game={:?})", self.fen(), self.game())
    }
    fn __str__(&self) -> String {
        self.fen()
    }
}
