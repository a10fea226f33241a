//! Editing a record in place: its tags, the comments of its main line, its length.
//! What the game is (its start position, variant, rules) is not a tag to edit, and a
//! record read from PCN keeps its document (written back as it is), so it is not
//! edited here either: both are refused with an [`EditError`].

use crate::record::Game;
use crate::{Format, Record};

/// Why an edit cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// The record could not be read, or holds a board no rules engine plays.
    #[error("the record holds no game to edit")]
    NoGame,
    /// The record was read from PCN, whose document is written back as read.
    #[error("a record read from PCN is not edited (convert it first)")]
    FromPcn,
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
    fn editable(&mut self) -> Result<&mut Game, EditError> {
        if self.format == Format::Pcn || self.source_pcn.is_some() {
            return Err(EditError::FromPcn);
        }
        match &mut self.game {
            None | Some(Game::Pcn(_)) => Err(EditError::NoGame),
            Some(g) => Ok(g),
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
            Game::Cescacs { .. } => return Err(EditError::Unsupported("add_comment", "C'escacs")),
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
        match self.editable()? {
            Game::Chess(g) => {
                g.moves.moves.truncate(plies);
                g.outcome = chess_pgn::Outcome::Unknown;
                g.final_comments.clear();
            }
            Game::Xiangqi(g) => {
                g.line.moves.truncate(plies);
                g.result = "*".to_string();
            }
            Game::Cescacs { .. } => return Err(EditError::Unsupported("truncate", "C'escacs")),
            Game::Pcn(_) => return Err(EditError::NoGame),
        }
        // Problems found beyond the cut are no longer the record's.
        self.diagnostics.clear();
        Ok(())
    }

    /// Adds a variation replacing half-move `ply` (1-based) of the main line: `moves`
    /// in SAN, played from the position before that half-move. It goes after the
    /// comments and variations already there.
    pub fn add_variation(&mut self, ply: usize, moves: &[&str]) -> Result<(), EditError> {
        let plies = self.plies();
        if ply == 0 || ply > plies {
            return Err(EditError::NoSuchPly { ply, plies });
        }
        let Game::Chess(g) = self.editable()? else {
            let what = match self.game {
                Some(Game::Xiangqi(_)) => "xiangqi",
                _ => "C'escacs",
            };
            return Err(EditError::Unsupported("add_variation", what));
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
        if line.moves.is_empty() {
            return Err(EditError::BadMove {
                index: 0,
                text: String::new(),
                reason: "a variation needs a move".into(),
            });
        }
        g.moves.moves[ply - 1]
            .after
            .push(chess_pgn::After::Variation(line));
        Ok(())
    }
}
