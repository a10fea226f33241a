//! Editing a record in place: its tags, the comments of its main line, its length, its
//! variations (at any node of its move tree), in every game (chess, xiangqi, C'escacs).
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
    /// A node number beyond the record's move tree, or its root (a variation replaces
    /// a move).
    #[error("node {node} is no move of the move tree (nodes 1 to {last})")]
    NoSuchNode {
        /// The node asked for.
        node: usize,
        /// The tree's last node (0: no move at all).
        last: usize,
    },
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
        // An edit may change the main line: the final board kept from the read goes.
        self.chess_final_board = None;
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
    /// record's own notation (xiangqi), in CTL-AN with the standard letters (C'escacs).
    /// It goes after the comments and variations already there.
    pub fn add_variation(&mut self, ply: usize, moves: &[&str]) -> Result<(), EditError> {
        let plies = self.plies();
        if ply == 0 || ply > plies {
            return Err(EditError::NoSuchPly { ply, plies });
        }
        let tree = self.tree_to_edit()?;
        let node = tree
            .main_line()
            .nth(ply - 1)
            .ok_or(EditError::NoSuchPly { ply, plies })?;
        self.add_variation_in(&tree, node, moves)
    }

    /// Adds a variation replacing the move of node `node` of the record's move tree
    /// ([`crate::move_tree`] with variations, as the record stands): in the main line or
    /// in any variation, at any depth. The moves are read as [`Record::add_variation`]
    /// reads them, from the position before that move. Node numbers are the tree's
    /// (0 the start, then every move in the order written, a move before its
    /// variations), so adding a variation renumbers the nodes written after it.
    pub fn add_variation_at(&mut self, node: usize, moves: &[&str]) -> Result<(), EditError> {
        let tree = self.tree_to_edit()?;
        self.add_variation_in(&tree, node, moves)
    }

    /// The move tree to place an edit in: one whose nodes are the model's moves, one
    /// for one (so the n-th node is the n-th move written).
    fn tree_to_edit(&mut self) -> Result<crate::MoveTree, EditError> {
        self.editable()?;
        let tree = crate::move_tree(self, true).map_err(|_| EditError::NoGame)?;
        let written = match self.game.as_ref() {
            Some(Game::Chess(g)) => chess_nodes(&g.moves),
            Some(Game::Xiangqi(g)) => xq::nodes(&g.line),
            Some(Game::Cescacs { record, .. }) => hex::nodes(&record.main),
            _ => return Err(EditError::NoGame),
        };
        if written + 1 != tree.nodes.len() {
            return Err(EditError::Unsupported(
                "adding a variation",
                "a record whose moves and variations do not all replay",
            ));
        }
        Ok(tree)
    }

    fn add_variation_in(
        &mut self,
        tree: &crate::MoveTree,
        node: usize,
        moves: &[&str],
    ) -> Result<(), EditError> {
        let last = tree.nodes.len().saturating_sub(1);
        let parent = match tree.nodes.get(node) {
            Some(n) if node > 0 => n.parent.unwrap_or_default(),
            _ => return Err(EditError::NoSuchNode { node, last }),
        };
        if moves.is_empty() {
            return Err(EditError::BadMove {
                index: 0,
                text: String::new(),
                reason: "a variation needs a move".into(),
            });
        }
        let before = &tree.nodes[parent].position;
        match (self.editable()?, before) {
            (Game::Chess(g), crate::TreePosition::Chess { board, .. }) => {
                let line = chess_line(board.clone(), moves)?;
                if let Some(m) = chess_node(&mut g.moves, node) {
                    m.after.push(chess_pgn::After::Variation(line));
                }
            }
            (Game::Xiangqi(g), crate::TreePosition::Xiangqi(p)) => {
                let style = xiangqi_pgn::MoveStyle::canonical(
                    g.source_notation.unwrap_or(xiangqi_pgn::Notation::Chinese),
                );
                let line = xq::line(p.clone(), moves, &style)?;
                if let Some(m) = xq::node(&mut g.line, node) {
                    m.variations.push(line);
                }
            }
            (Game::Cescacs { record, .. }, crate::TreePosition::Cescacs(p)) => {
                hex::add_variation(&mut record.main, node, p.clone(), moves)?;
            }
            _ => return Err(EditError::NoGame),
        }
        Ok(())
    }
}

/// Moves of a chess line and its variations.
fn chess_nodes(line: &chess_pgn::Line) -> usize {
    line.moves
        .iter()
        .map(|m| {
            1 + m
                .after
                .iter()
                .map(|a| match a {
                    chess_pgn::After::Variation(v) => chess_nodes(v),
                    chess_pgn::After::Comment(_) => 0,
                })
                .sum::<usize>()
        })
        .sum()
}

/// The `n`-th move (1-based) of a chess line and its variations, in the order written.
fn chess_node(line: &mut chess_pgn::Line, n: usize) -> Option<&mut chess_pgn::MoveNode> {
    fn find<'a>(
        line: &'a mut chess_pgn::Line,
        left: &mut usize,
    ) -> Option<&'a mut chess_pgn::MoveNode> {
        for m in &mut line.moves {
            *left -= 1;
            if *left == 0 {
                return Some(m);
            }
            for a in &mut m.after {
                if let chess_pgn::After::Variation(v) = a
                    && let Some(found) = find(v, left)
                {
                    return Some(found);
                }
            }
        }
        None
    }
    let mut left = n;
    find(line, &mut left)
}

/// SAN moves played from `board`, as a chess line.
fn chess_line(
    mut board: chess_pgn::cozy_chess::Board,
    moves: &[&str],
) -> Result<chess_pgn::Line, EditError> {
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
    Ok(line)
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
    use super::EditError;
    use cescacs_rules::an::MoveText;
    use cescacs_rules::{Letters, Position};
    use ctl_pgn::{Comment, CommentKind, GameResult, Item, Line, MoveNode, Side, Variation};

    /// Moves of a line and its variations.
    pub(super) fn nodes(line: &Line) -> usize {
        line.items
            .iter()
            .map(|i| match i {
                Item::Move(_) => 1,
                Item::Variation(v) => nodes(&v.line),
                Item::Comment(_) => 0,
            })
            .sum()
    }

    /// Adds a variation replacing the `n`-th move (1-based, in the order written) of
    /// `line` and its variations: `moves` played from `before`, numbered from the
    /// replaced move's number and side (spec 7.7), placed after the comments and
    /// variations already following that move and after the line's other
    /// alternatives to it.
    pub(super) fn add_variation(
        line: &mut Line,
        n: usize,
        before: Position,
        moves: &[&str],
    ) -> Result<(), EditError> {
        let mut left = n;
        let Some((line, at)) = find(line, &mut left) else {
            return Ok(());
        };
        let Item::Move(replaced) = &line.items[at] else {
            return Ok(());
        };
        let key = (replaced.number, replaced.side);
        let new = variation(key.0, key.1, before, moves)?;
        // After what directly follows the move, and after every variation of the line
        // that replaces it (one written after the next half-move, as `2. X, Y ($[1] 2.
        // Z)` replaces X): the new one is its last alternative.
        let mut end = at + 1;
        while end < line.items.len() && !matches!(line.items[end], Item::Move(_)) {
            end += 1;
        }
        for (i, item) in line.items.iter().enumerate().skip(end) {
            match item {
                Item::Move(m) if (m.number, m.side) == key => break,
                Item::Variation(v)
                    if v.line.moves().next().map(|f| (f.number, f.side)) == Some(key) =>
                {
                    end = i + 1;
                }
                _ => {}
            }
        }
        line.items.insert(end, Item::Variation(new));
        Ok(())
    }

    /// The line holding the `left`-th move and the move's index in it.
    fn find<'a>(line: &'a mut Line, left: &mut usize) -> Option<(&'a mut Line, usize)> {
        let mut path = Vec::new();
        let at = locate(line, left, &mut path)?;
        let mut line = line;
        for i in path {
            let Item::Variation(v) = &mut line.items[i] else {
                return None;
            };
            line = &mut v.line;
        }
        Some((line, at))
    }

    /// The index of the `left`-th move in the line that holds it, the indices of the
    /// variations leading to that line in `path`.
    fn locate(line: &Line, left: &mut usize, path: &mut Vec<usize>) -> Option<usize> {
        for (i, item) in line.items.iter().enumerate() {
            match item {
                Item::Move(_) => {
                    *left -= 1;
                    if *left == 0 {
                        return Some(i);
                    }
                }
                Item::Variation(v) => {
                    path.push(i);
                    if let Some(at) = locate(&v.line, left, path) {
                        return Some(at);
                    }
                    path.pop();
                }
                Item::Comment(_) => {}
            }
        }
        None
    }

    /// The moves as a variation from `position`, its first move numbered `number`,
    /// `side`; each move in the CTL-AN the rules write, with its check marker.
    fn variation(
        number: u32,
        side: Side,
        mut position: Position,
        moves: &[&str],
    ) -> Result<Variation, EditError> {
        let letters = Letters::default();
        let (mut number, mut side) = (number, side);
        let mut line = Line::default();
        for (i, text) in moves.iter().enumerate() {
            let bad = |reason: String| EditError::BadMove {
                index: i + 1,
                text: text.to_string(),
                reason,
            };
            let t = MoveText::parse(text.trim(), &letters).map_err(|e| bad(e.to_string()))?;
            let mv = position.resolve(&t).map_err(|e| bad(e.to_string()))?.mv;
            let an = position.move_to_an(mv, &letters);
            let node = half(&an, number, side)
                .ok_or_else(|| bad(format!("CTL-PGN cannot read the rules' text {an:?}")))?;
            line.items.push(Item::Move(node));
            position.play_unchecked(mv);
            if side == Side::Black {
                number += 1;
            }
            side = side.opponent();
        }
        Ok(Variation {
            label: None,
            line,
            span: Default::default(),
        })
    }

    /// One half-move read as the CTL-PGN reader reads it (its token, check marker).
    fn half(text: &str, number: u32, side: Side) -> Option<MoveNode> {
        let src = match side {
            Side::White => format!("{number}. {text}\n"),
            Side::Black => format!("{number}. …, {text}\n"),
        };
        let g = ctl_pgn::read_game(&src).ok()?;
        let mut node = g.main_moves().next()?.clone();
        node.end_mark = false;
        Some(node)
    }

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
    use xiangqi_pgn::{Line, MoveNode, MoveStyle};

    /// Moves of a line and its variations.
    pub(super) fn nodes(line: &Line) -> usize {
        line.moves
            .iter()
            .map(|m| 1 + m.variations.iter().map(nodes).sum::<usize>())
            .sum()
    }

    /// The `n`-th move (1-based) of a line and its variations, in the order written.
    pub(super) fn node(line: &mut Line, n: usize) -> Option<&mut MoveNode> {
        fn find<'a>(line: &'a mut Line, left: &mut usize) -> Option<&'a mut MoveNode> {
            for m in &mut line.moves {
                *left -= 1;
                if *left == 0 {
                    return Some(m);
                }
                for v in &mut m.variations {
                    if let Some(found) = find(v, left) {
                        return Some(found);
                    }
                }
            }
            None
        }
        let mut left = n;
        find(line, &mut left)
    }

    /// Moves in ICCS (`h2e2`, `H2-E2`) or in the record's notation, played from
    /// `position`, as a line.
    pub(super) fn line(
        mut position: xiangqi::Position,
        moves: &[&str],
        style: &MoveStyle,
    ) -> Result<Line, EditError> {
        let mut line = Line::default();
        for (i, text) in moves.iter().enumerate() {
            let wanted = text.trim();
            let iccs = wanted.replace('-', "");
            let found = position.legal_moves().iter().copied().find(|&m| {
                m.to_iccs().eq_ignore_ascii_case(&iccs)
                    || xiangqi_pgn::render(&position, m, style) == wanted
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
        Ok(line)
    }
}
