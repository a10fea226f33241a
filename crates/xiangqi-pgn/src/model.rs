//! The game model: tags in order, start position, a move tree with comments, NAGs and
//! variations, and the result.

use xiangqi::{Move, Position};

use crate::notation::Notation;

/// One move of a line, with what follows it in the movetext.
#[derive(Debug, Clone)]
pub struct MoveNode {
    pub mv: Move,
    /// The token as it appeared in the source (empty for games built in code).
    pub source: String,
    /// NAGs (`$1`) and suffix glyphs (`!?`) in order.
    pub nags: Vec<String>,
    /// Comments following the move.
    pub comments: Vec<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Line>,
}

/// A line of moves with the comments that precede its first move.
#[derive(Debug, Clone, Default)]
pub struct Line {
    pub leading_comments: Vec<String>,
    pub moves: Vec<MoveNode>,
}

impl Line {
    /// The same move tree: moves, NAGs, comments and variations, recursively. With
    /// `with_sources` the move texts as read must match too; without, a line read from
    /// text can be compared with one built in code. (No `PartialEq`: which of the two is
    /// meant depends on the caller.)
    pub fn same_tree(&self, other: &Line, with_sources: bool) -> bool {
        self.leading_comments == other.leading_comments
            && self.moves.len() == other.moves.len()
            && self.moves.iter().zip(&other.moves).all(|(x, y)| {
                x.mv == y.mv
                    && (!with_sources || x.source == y.source)
                    && x.nags == y.nags
                    && x.comments == y.comments
                    && x.variations.len() == y.variations.len()
                    && x.variations
                        .iter()
                        .zip(&y.variations)
                        .all(|(v, w)| v.same_tree(w, with_sources))
            })
    }
}

/// A xiangqi game.
#[derive(Debug, Clone)]
pub struct Game {
    /// Tags in source order, names and values verbatim.
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub line: Line,
    /// The termination token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
    /// The notation the movetext was read in, if it was read.
    pub source_notation: Option<Notation>,
}

impl Game {
    /// A new game from `start` with no moves.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Vec::new(),
            start,
            line: Line::default(),
            result: "*".to_string(),
            source_notation: None,
        }
    }

    /// A tag value by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an existing one of the same (case-insensitive) name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The main-line moves.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.line.moves.iter().map(|n| n.mv)
    }

    /// The position after the whole main line.
    pub fn final_position(&self) -> Position {
        let mut p = self.start.clone();
        for m in self.moves() {
            p.play(m);
        }
        p
    }

    /// Appends a main-line move given by its squares, if legal at the end of the line.
    pub fn push_iccs(&mut self, iccs: &str) -> Option<Move> {
        let pos = self.final_position();
        let m = crate::notation::resolve_coords(&pos, iccs, false).ok()?;
        self.line.moves.push(MoveNode {
            mv: m,
            source: String::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        });
        Some(m)
    }
}
