//! Editing a record in place: its tags, the comments of its main line, its length, its
//! variations, in every game (chess, xiangqi, C'escacs; C'escacs variations not yet).
//! What the game is (its start position, variant, rules) is not a tag to edit: refused
//! with an [`EditError`]. A record read from PCN is edited in the game model its
//! document was decoded to, and from then on written from that model; a document the
//! model cannot carry whole (what it would lose is a warning when it is converted) is
//! not edited, since writing the edit would lose the rest.

use crate::Record;
use crate::record::Game;

/// Why an edit cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// The record could not be read, or holds a board no rules engine plays.
    #[error("the record holds no game to edit")]
    NoGame,
    /// The record was read from a PCN document its game model cannot carry whole:
    /// writing an edit would lose what is named.
    #[error(
        "a record read from PCN whose game model cannot carry all of its document is not edited: {0}"
    )]
    FromPcn(String),
    /// A tag that says what the game is rather than something about it.
    #[error("tag {0:?} defines the game (start position, variant, letters): not edited")]
    DefiningTag(String),
    /// A tag name the formats cannot write.
    #[error("tag name {0:?} is not a PGN tag name (letters, digits and _ only)")]
    BadTagName(String),
    /// Text the record's movetext cannot hold.
    #[error("text {0:?} cannot be written in a comment (a `}}` or a line break)")]
    BadComment(String),
    /// A ply beyond the main line.
    #[error("ply {ply} is beyond the main line ({plies} half-moves)")]
    NoSuchPly {
        /// The ply asked for.
        ply: usize,
        /// Half-moves in the main line.
        plies: usize,
    },
    /// A move of a variation that cannot be read or played where it stands.
    #[error("variation move {index} {text:?}: {reason}")]
    BadMove {
        /// 1-based place of the move in the variation.
        index: usize,
        /// The move as given.
        text: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// An edit the record's game does not take yet.
    #[error("{0} is not supported for {1}")]
    Unsupported(&'static str, &'static str),
}

/// Tags that define the game, in every format: editing one would change its moves'
/// meaning, not describe it.
fn defining(name: &str) -> bool {
    [
        "FEN", "SetUp", "Variant", "TLPD", "PDTL", "DPTL", "Redefine",
    ]
    .iter()
    .any(|t| t.eq_ignore_ascii_case(name))
}

impl Record {
    /// The game model to edit. A record read from PCN is written from its model once
    /// edited (its document as read no longer says what the record holds).
    fn editable(&mut self) -> Result<&mut Game, EditError> {
        if let Some(lost) = self.pcn_warnings.first() {
            return Err(EditError::FromPcn(lost.message.clone()));
        }
        match &mut self.game {
            None | Some(Game::Pcn(_)) => Err(EditError::NoGame),
            Some(g) => {
                self.source_pcn = None;
                Ok(g)
            }
        }
    }

    /// Sets tag `name` to `value`: the value of its last occurrence (the one readers
    /// take) is replaced, or the tag is added after the others.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), EditError> {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(EditError::BadTagName(name.to_string()));
        }
        if defining(name) {
            return Err(EditError::DefiningTag(name.to_string()));
        }
        let set =
            |tags: &mut Vec<(String, String)>| match tags.iter_mut().rev().find(|t| t.0 == name) {
                Some(t) => t.1 = value.to_string(),
                None => tags.push((name.to_string(), value.to_string())),
            };
        match self.editable()? {
            Game::Chess(g) => set(&mut g.tags),
            Game::Xiangqi(g) => set(&mut g.tags),
            Game::Cescacs { record, .. } => {
                match record.tags.iter_mut().rev().find(|t| t.name == name) {
                    Some(t) => t.value = value.to_string(),
                    None => record.tags.push(ctl_pgn::Tag {
                        name: name.to_string(),
                        value: value.to_string(),
                        span: Default::default(),
                    }),
                }
            }
            Game::Pcn(_) => return Err(EditError::NoGame),
        }
        Ok(())
    }

    /// Removes every occurrence of tag `name`; whether there was one.
    pub fn remove_tag(&mut self, name: &str) -> Result<bool, EditError> {
        if defining(name) {
            return Err(EditError::DefiningTag(name.to_string()));
        }
        let before = self.tags().len();
        match self.editable()? {
            Game::Chess(g) => g.tags.retain(|t| t.0 != name),
            Game::Xiangqi(g) => g.tags.retain(|t| t.0 != name),
            Game::Cescacs { record, .. } => record.tags.retain(|t| t.name != name),
            Game::Pcn(_) => return Err(EditError::NoGame),
        }
        Ok(self.tags().len() < before)
    }

    /// Adds a comment after half-move `ply` of the main line (0: before its first
    /// move), after the comments already there. The text is written verbatim (a
    /// `[%clk]` or `[%eval]` command in it is read as such when the output is read).
    pub fn add_comment(&mut self, ply: usize, text: &str) -> Result<(), EditError> {
        if text.contains('}') || text.contains(['\n', '\r']) {
            return Err(EditError::BadComment(text.to_string()));
        }
        let plies = self.plies();
        if ply > plies {
            return Err(EditError::NoSuchPly { ply, plies });
        }
        match self.editable()? {
            Game::Chess(g) => match ply {
                0 => g.moves.comments.push(text.to_string()),
                n => g.moves.moves[n - 1]
                    .after
                    .push(chess_pgn::After::Comment(text.to_string())),
            },
            Game::Xiangqi(g) => match ply {
                0 => g.line.leading_comments.push(text.to_string()),
                n => g.line.moves[n - 1].comments.push(text.to_string()),
            },
            Game::Cescacs { record, .. } => {
                let at = hex::after_ply(&record.main, ply);
                record.main.items.insert(at, hex::comment(text));
            }
            Game::Pcn(_) => return Err(EditError::NoGame),
        }
        Ok(())
    }

    /// Keeps the first `plies` half-moves of the main line (with their comments and
    /// variations); the result becomes `*` when moves are cut.
    pub fn truncate(&mut self, plies: usize) -> Result<(), EditError> {
        let have = self.plies();
        if plies > have {
            return Err(EditError::NoSuchPly {
                ply: plies,
                plies: have,
            });
        }
        if plies == have {
            return Ok(());
        }
        let game = self.editable()?;
        match game {
            Game::Chess(g) => {
                g.moves.moves.truncate(plies);
                g.outcome = chess_pgn::Outcome::Unknown;
                g.final_comments.clear();
            }
            Game::Xiangqi(g) => {
                g.line.moves.truncate(plies);
                g.result = "*".to_string();
            }
            Game::Cescacs { record, .. } => {
                let mut record = std::mem::replace(record, empty_ctl());
                hex::truncate(&mut record, plies);
                *game = crate::cescacs::from_model(record);
            }
            Game::Pcn(_) => return Err(EditError::NoGame),
        }
        // Problems found beyond the cut are no longer the record's.
        self.diagnostics.clear();
        Ok(())
    }

    /// Adds a variation replacing half-move `ply` (1-based) of the main line: `moves`
    /// played from the position before that half-move, in SAN (chess), in ICCS or the
    /// record's own notation (xiangqi). It goes after the comments and variations
    /// already there.
    pub fn add_variation(&mut self, ply: usize, moves: &[&str]) -> Result<(), EditError> {
        let plies = self.plies();
        if ply == 0 || ply > plies {
            return Err(EditError::NoSuchPly { ply, plies });
        }
        if moves.is_empty() {
            return Err(EditError::BadMove {
                index: 0,
                text: String::new(),
                reason: "a variation needs a move".into(),
            });
        }
        let g = match self.editable()? {
            Game::Chess(g) => g,
            Game::Xiangqi(g) => return xq::add_variation(g, ply, moves),
            _ => return Err(EditError::Unsupported("add_variation", "C'escacs")),
        };
        let mut board = match g.moves.plies(&g.start).nth(ply - 1) {
            Some(p) => p.before,
            None => return Err(EditError::NoSuchPly { ply, plies }),
        };
        let mut line = chess_pgn::Line::default();
        for (i, text) in moves.iter().enumerate() {
            let bad = |reason: String| EditError::BadMove {
                index: i + 1,
                text: text.to_string(),
                reason,
            };
            let san = chess_pgn::SanPlus::parse(text.as_bytes()).map_err(|e| bad(e.to_string()))?;
            let mv = san.san.to_move(&board).map_err(|e| bad(e.to_string()))?;
            line.moves.push(chess_pgn::MoveNode {
                mv: Some(mv),
                san: chess_pgn::SanPlus::from_move(&board, mv),
                nags: san.glyph.into_iter().collect(),
                after: Vec::new(),
                clock: None,
                eval: None,
            });
            board.play_unchecked(mv);
        }
        g.moves.moves[ply - 1]
            .after
            .push(chess_pgn::After::Variation(line));
        Ok(())
    }
}

/// A record with nothing in it, to take an edited record's place for a moment.
fn empty_ctl() -> ctl_pgn::Game {
    ctl_pgn::Game {
        tags: Vec::new(),
        main: ctl_pgn::Line::default(),
        result: None,
        final_comments: Vec::new(),
        span: Default::default(),
    }
}

/// C'escacs: a line is a list of items (moves, comments, variations) in the order
/// written.
mod hex {
    use ctl_pgn::{Comment, CommentKind, GameResult, Item, Line};

    /// Where an item placed after half-move `ply` (0: before the first) goes: after
    /// the comments and variations already following it, before the next move.
    pub(super) fn after_ply(line: &Line, ply: usize) -> usize {
        let mut seen = 0;
        for (i, item) in line.items.iter().enumerate() {
            if let Item::Move(_) = item {
                if seen == ply {
                    return i;
                }
                seen += 1;
            }
        }
        line.items.len()
    }

    pub(super) fn comment(text: &str) -> Item {
        Item::Comment(Comment {
            kind: CommentKind::General,
            text: text.to_string(),
            references: Vec::new(),
            span: Default::default(),
        })
    }

    /// Keeps the first `plies` half-moves of the main line with what follows each
    /// (comments, variations); the last one kept carries the `:` end mark if the
    /// record's last move did, and the result becomes `*` (line and tag).
    pub(super) fn truncate(record: &mut ctl_pgn::Game, plies: usize) {
        let cut = after_ply(&record.main, plies);
        let marked = record.main_moves().last().is_some_and(|m| m.end_mark);
        record.main.items.truncate(cut);
        let mut last = None;
        for item in &mut record.main.items {
            if let Item::Move(m) = item {
                m.end_mark = false;
                last = Some(m);
            }
        }
        if let Some(m) = last {
            m.end_mark = marked;
        }
        record.result = Some(GameResult::Unfinished);
        for t in record.tags.iter_mut().filter(|t| t.name == "Result") {
            t.value = GameResult::Unfinished.as_str().to_string();
        }
        record.final_comments.clear();
    }
}

/// Xiangqi: moves of a variation given in ICCS or in the record's notation.
mod xq {
    use super::EditError;
    use xiangqi_pgn::{Line, MoveNode, MoveStyle, Notation};

    pub(super) fn add_variation(
        g: &mut xiangqi_pgn::Game,
        ply: usize,
        moves: &[&str],
    ) -> Result<(), EditError> {
        let mut position = g.start.clone();
        for node in &g.line.moves[..ply - 1] {
            position.play(node.mv);
        }
        let style = MoveStyle::canonical(g.source_notation.unwrap_or(Notation::Chinese));
        let mut line = Line::default();
        for (i, text) in moves.iter().enumerate() {
            let wanted = text.trim();
            // ICCS as `h2e2` or `H2-E2`.
            let iccs = wanted.replace('-', "");
            let found = position.legal_moves().iter().copied().find(|&m| {
                m.to_iccs().eq_ignore_ascii_case(&iccs)
                    || xiangqi_pgn::render(&position, m, &style) == wanted
            });
            let Some(mv) = found else {
                return Err(EditError::BadMove {
                    index: i + 1,
                    text: text.to_string(),
                    reason: "not a legal move here (ICCS or the record's notation)".into(),
                });
            };
            line.moves.push(MoveNode {
                mv,
                source: String::new(),
                nags: Vec::new(),
                comments: Vec::new(),
                variations: Vec::new(),
            });
            position.play(mv);
        }
        g.line.moves[ply - 1].variations.push(line);
        Ok(())
    }
}
