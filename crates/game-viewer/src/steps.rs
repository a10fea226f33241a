//! Every position of a game, whatever the format it was read from: the main line and
//! each variation, with the move as the source wrote it and what was said about it.

use board_svg::BoardKind;
use cescacs_convert::{Game, Record};

/// The position before the first move, or after one half-move.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shown {
    /// FEN (chess, xiangqi) or TLPD (C'escacs).
    pub position: String,
    /// One character per cell index of the board (see [`board_svg::BoardKind`]): the
    /// man's letter, upper case White (Red), lower case Black; `.` for an empty cell.
    pub board: String,
    /// The cell of the side to move's king when it is in check.
    pub check: Option<u16>,
    /// The side to move is checkmated.
    pub mate: bool,
}

/// One half-move with the position after it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Step {
    /// The move as the source wrote it (SAN for chess, regenerated; Chinese, WXF or
    /// ICCS for xiangqi as written; CTL-AN with its check marker for C'escacs).
    pub text: String,
    /// Full-move number.
    pub number: u32,
    /// Black (or xiangqi's Black) made this move.
    pub black: bool,
    /// The position after the move.
    pub shown: Shown,
    /// From and to cell indices.
    pub last_move: Option<(u16, u16)>,
    /// NAGs as numbers or glyphs as written (`$1`, `!?`).
    pub nags: Vec<String>,
    /// Comments after the move (commands such as `[%clk]` kept verbatim).
    pub comments: Vec<String>,
    /// The clock after the move (`[%clk]`), as `h:mm:ss`.
    pub clock: Option<String>,
    /// The engine evaluation (`[%eval]`): `+0.35` in pawns from White's view, `#-3`.
    pub eval: Option<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Vec<Step>>,
}

/// A game's positions: the start, then every half-move of the main line (each with its
/// variations), as [`steps`] gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSteps {
    /// Which board.
    pub kind: BoardKind,
    /// The tags in record order.
    pub tags: Vec<(String, String)>,
    /// Comments before the first move.
    pub intro: Vec<String>,
    /// The start position.
    pub start: Shown,
    /// The main line.
    pub main: Vec<Step>,
    /// The result as written, if any.
    pub result: Option<String>,
}

impl GameSteps {
    /// The position after `ply` main-line half-moves (0: the start); `None` past the
    /// end.
    pub fn position_after(&self, ply: usize) -> Option<&Shown> {
        match ply {
            0 => Some(&self.start),
            k => self.main.get(k - 1).map(|s| &s.shown),
        }
    }
}

/// The picture of a game after `ply` main-line half-moves (0: the start): the men,
/// the last move, a king in check or mated, and the position as caption and as the
/// picture's `data-position`; `None` past the end of the main line.
pub fn picture(steps: &GameSteps, ply: usize) -> Option<String> {
    let shown = steps.position_after(ply)?;
    let men: Vec<board_svg::Man> = shown
        .board
        .chars()
        .enumerate()
        .filter(|(_, c)| *c != '.')
        .map(|(i, c)| board_svg::Man {
            cell: i as u16,
            side: if c.is_ascii_uppercase() {
                board_svg::Side::White
            } else {
                board_svg::Side::Black
            },
            letter: c.to_ascii_uppercase(),
        })
        .collect();
    let marks = board_svg::Marks {
        last_move: ply.checked_sub(1).and_then(|i| steps.main[i].last_move),
        check: shown.check,
        mate: shown.mate,
    };
    let position = Some(shown.position.as_str());
    Some(board_svg::picture(
        steps.kind, &men, &marks, false, position, position,
    ))
}

/// Why a record's positions cannot be listed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StepsError {
    /// The record could not be read: nothing to show.
    Unreadable,
    /// A PCN document of a board none of the rules engines plays.
    UnknownBoard,
    /// A C'escacs move could not be replayed (only in a record read with errors).
    Replay {
        /// Half-move index in its line (0-based).
        ply: usize,
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for StepsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepsError::Unreadable => write!(f, "the game could not be read"),
            StepsError::UnknownBoard => write!(f, "a PCN document of an unknown board"),
            StepsError::Replay { ply, reason } => {
                write!(f, "half-move {} could not be replayed: {reason}", ply + 1)
            }
        }
    }
}

impl std::error::Error for StepsError {}

/// The positions of a record: the start, and after every half-move of the main line
/// and of every variation. A record read with errors gives the moves read before the
/// first error (its errors are the record's own, [`Record::errors`]).
///
/// ```
/// use cescacs_convert::{Format, Record};
/// let record = Record::from_bytes(Format::Pgn, b"1. e4 e5 (1... c5) 2. Qh5 *\n");
/// let steps = game_viewer::steps(&record).unwrap();
/// assert_eq!(steps.main.len(), 3);
/// assert_eq!(steps.main[0].shown.position, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// assert_eq!(steps.main[1].variations[0][0].text, "c5");
/// ```
pub fn steps(record: &Record) -> Result<GameSteps, StepsError> {
    match record.game().ok_or(StepsError::Unreadable)? {
        Game::Chess(g) => Ok(chess::steps(g)),
        Game::Xiangqi(g) => Ok(xq::steps(g)),
        Game::Cescacs { record, .. } => hex::steps(record),
        _ => Err(StepsError::UnknownBoard),
    }
}

pub(crate) mod chess {
    use super::{GameSteps, Shown, Step};
    use board_svg::BoardKind;
    use chess_pgn::cozy_chess::{Board, Color, GameStatus, Square};
    use chess_pgn::{After, CastlingStyle, Eval, Line};

    pub(super) fn steps(g: &chess_pgn::Game) -> GameSteps {
        let style = g.fen_castling.unwrap_or(CastlingStyle::XFen);
        GameSteps {
            kind: BoardKind::Chess,
            tags: g.tags.clone(),
            intro: g.moves.comments.clone(),
            start: shown(&g.start, style),
            main: line(&g.moves, &g.start, style),
            result: Some(g.outcome.as_str().to_string()),
        }
    }

    pub(crate) fn shown(board: &Board, style: CastlingStyle) -> Shown {
        let mut cells = String::with_capacity(64);
        for sq in Square::ALL {
            cells.push(match (board.piece_on(sq), board.color_on(sq)) {
                (Some(p), Some(Color::White)) => char::from(p).to_ascii_uppercase(),
                (Some(p), _) => char::from(p),
                _ => '.',
            });
        }
        let checked = !board.checkers().is_empty();
        Shown {
            position: legal_en_passant(chess_pgn::to_fen(board, style), board),
            board: cells,
            check: checked.then(|| board.king(board.side_to_move()) as u16),
            mate: checked && board.status() == GameStatus::Won,
        }
    }

    /// The FEN with its en-passant square only when an en-passant capture is legal
    /// (cozy-chess writes it after every double step), as python-chess's `fen()` and
    /// lichess write it: one position, one FEN.
    fn legal_en_passant(fen: String, board: &Board) -> String {
        let Some(ep) = board.en_passant() else {
            return fen;
        };
        let rank = chess_pgn::cozy_chess::Rank::Sixth.relative_to(board.side_to_move());
        let target = Square::new(ep, rank);
        let mut legal = false;
        board.generate_moves(|moves| {
            legal |= moves.piece == chess_pgn::cozy_chess::Piece::Pawn && moves.to.has(target);
            legal
        });
        if legal {
            return fen;
        }
        let mut fields: Vec<&str> = fen.split(' ').collect();
        if fields.len() > 3 {
            fields[3] = "-";
        }
        fields.join(" ")
    }

    fn line(moves: &Line, start: &Board, style: CastlingStyle) -> Vec<Step> {
        moves
            .plies(start)
            .map(|ply| {
                let after = ply.after();
                let last_move = ply.mv().map(|m| {
                    // cozy-chess castles king-takes-rook: show the king's own move.
                    let to = if ply.before.color_on(m.to) == ply.before.color_on(m.from) {
                        let rank = m.from.rank();
                        let file = if m.to.file() > m.from.file() {
                            chess_pgn::cozy_chess::File::G
                        } else {
                            chess_pgn::cozy_chess::File::C
                        };
                        Square::new(file, rank)
                    } else {
                        m.to
                    };
                    (m.from as u16, to as u16)
                });
                Step {
                    text: ply.san().to_string(),
                    number: ply.before.fullmove_number() as u32,
                    black: ply.before.side_to_move() == Color::Black,
                    shown: shown(&after, style),
                    last_move,
                    nags: ply.node.nags.iter().map(|n| format!("${n}")).collect(),
                    comments: ply.comments().map(str::to_string).collect(),
                    clock: ply.node.clock.map(clock),
                    eval: ply.node.eval.map(|e| match e {
                        Eval::Pawns(p) => format!("{p:+.2}"),
                        Eval::Mate(n) => format!("#{n}"),
                    }),
                    variations: ply
                        .node
                        .after
                        .iter()
                        .filter_map(|a| match a {
                            After::Variation(v) => Some(line(v, &ply.before, style)),
                            After::Comment(_) => None,
                        })
                        .collect(),
                }
            })
            .collect()
    }

    fn clock(seconds: f64) -> String {
        let s = seconds.max(0.0).round() as u64;
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    }
}

pub(crate) mod xq {
    use super::{GameSteps, Shown, Step};
    use board_svg::BoardKind;
    use xiangqi::{Position, Side, Square, Status};
    use xiangqi_pgn::Line;

    pub(super) fn steps(g: &xiangqi_pgn::Game) -> GameSteps {
        GameSteps {
            kind: BoardKind::Xiangqi,
            tags: g.tags.clone(),
            intro: g.line.leading_comments.clone(),
            start: shown(&g.start),
            main: line(&g.line, &g.start),
            result: Some(g.result.clone()),
        }
    }

    pub(crate) fn index(sq: Square) -> u16 {
        u16::from(sq.rank()) * 9 + u16::from(sq.file())
    }

    pub(crate) fn shown(p: &Position) -> Shown {
        let mut cells = vec!['.'; 90];
        for sq in Square::all() {
            if let Some(piece) = p.piece_at(sq) {
                cells[usize::from(index(sq))] = piece.fen_char();
            }
        }
        let checked = p.is_check();
        Shown {
            position: p.to_fen(),
            board: cells.into_iter().collect(),
            check: checked.then(|| index(p.general(p.side_to_move()))),
            mate: checked && p.status() == Status::Checkmate,
        }
    }

    fn line(moves: &Line, start: &Position) -> Vec<Step> {
        let mut position = start.clone();
        let style = cescacs_convert::XiangqiNotation::Chinese;
        moves
            .moves
            .iter()
            .map(|m| {
                let before = position.clone();
                position.play(m.mv);
                let text = if m.source.is_empty() {
                    xiangqi_pgn::render(&before, m.mv, &chinese(style))
                } else {
                    m.source.clone()
                };
                Step {
                    text,
                    number: before.fullmove_number(),
                    black: before.side_to_move() == Side::Black,
                    shown: shown(&position),
                    last_move: Some((index(m.mv.from()), index(m.mv.to()))),
                    nags: m.nags.clone(),
                    comments: m.comments.clone(),
                    clock: None,
                    eval: None,
                    variations: m.variations.iter().map(|v| line(v, &before)).collect(),
                }
            })
            .collect()
    }

    fn chinese(_: cescacs_convert::XiangqiNotation) -> xiangqi_pgn::MoveStyle {
        xiangqi_pgn::MoveStyle::canonical(xiangqi_pgn::Notation::Chinese)
    }
}

pub(crate) mod hex {
    use super::{GameSteps, Shown, Step, StepsError};
    use board_svg::{BoardKind, hex_index};
    use cescacs_hex::Cell;
    use cescacs_rules::an::MoveText;
    use cescacs_rules::{Letters, Position, Side, Status};
    use ctl_pgn::{Item, Line};

    pub(super) fn steps(record: &ctl_pgn::Game) -> Result<GameSteps, StepsError> {
        // The start as the converters read it: the TLPD tag, else the initial position.
        let start = match record.start_tlpd() {
            None => Position::initial(),
            Some(t) => cescacs_tlpd::parse(t).map_err(|e| StepsError::Replay {
                ply: 0,
                reason: format!("start position {t}: {e}"),
            })?,
        };
        let letters = record
            .letters()
            .unwrap_or_else(|_| ctl_pgn::LetterTable::standard());
        let intro = record
            .main
            .items
            .iter()
            .take_while(|i| !matches!(i, Item::Move(_)))
            .filter_map(|i| match i {
                Item::Comment(c) => Some(c.text.clone()),
                _ => None,
            })
            .collect();
        Ok(GameSteps {
            kind: BoardKind::Cescacs,
            tags: record
                .tags
                .iter()
                .map(|t| (t.name.clone(), t.value.clone()))
                .collect(),
            intro,
            start: shown(&start),
            main: line(&record.main, &start, &letters)?,
            result: record.result.map(|r| r.as_str().to_string()),
        })
    }

    pub(crate) fn shown(p: &Position) -> Shown {
        let letters = Letters::default();
        let mut cells = String::with_capacity(169);
        for cell in Cell::all() {
            cells.push(match p.piece_at(cell) {
                Some(piece) if piece.side == Side::White => letters.letter(piece.kind),
                Some(piece) => letters.letter(piece.kind).to_ascii_lowercase(),
                None => '.',
            });
        }
        let checked = !p.checkers().is_empty();
        Shown {
            position: cescacs_tlpd::write(p),
            board: cells,
            check: checked.then(|| hex_index(p.king(p.side_to_move()))),
            mate: checked && p.status() == Status::Checkmate,
        }
    }

    fn line(
        moves: &Line,
        start: &Position,
        letters: &ctl_pgn::LetterTable,
    ) -> Result<Vec<Step>, StepsError> {
        let mut position = start.clone();
        let mut before = start.clone();
        let mut out: Vec<Step> = Vec::new();
        for item in &moves.items {
            match item {
                Item::Move(m) => {
                    let mut text = m.token.to_standard();
                    if let Some(c) = m.check {
                        text.push_str(c.as_str());
                    }
                    let ply = out.len();
                    let replay = |reason: String| StepsError::Replay { ply, reason };
                    let t = MoveText::parse(&text, &Letters::default())
                        .map_err(|e| replay(format!("{text}: {e}")))?;
                    let mv = position
                        .resolve(&t)
                        .map_err(|e| replay(format!("{text}: {e}")))?
                        .mv;
                    before = position.clone();
                    position.play_unchecked(mv);
                    let mut written = m.token.render(letters, m.side);
                    if let Some(c) = m.check {
                        written.push_str(c.as_str());
                    }
                    out.push(Step {
                        text: written,
                        number: m.number,
                        black: m.side == ctl_pgn::Side::Black,
                        shown: shown(&position),
                        last_move: Some((hex_index(mv.from()), hex_index(mv.to()))),
                        nags: m
                            .assessment
                            .map(|a| a.as_str().to_string())
                            .into_iter()
                            .collect(),
                        ..Step::default()
                    });
                }
                Item::Comment(c) => {
                    if let Some(last) = out.last_mut() {
                        last.comments.push(c.text.clone());
                    }
                }
                Item::Variation(v) => {
                    let alternative = line(&v.line, &before, letters)?;
                    if let Some(last) = out.last_mut() {
                        last.variations.push(alternative);
                    }
                }
            }
        }
        Ok(out)
    }
}
