//! The game model: tags in order, start position, a move tree with comments, NAGs and
//! variations, and the result.

use xiangqi::{Move, Position};

use crate::notation::Notation;

/// One move of a line, with what follows it in the movetext.
#[derive(Debug, Clone)]
pub struct MoveNode {
    /// The move, resolved in the position before it.
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
    /// Comments before the first move.
    pub leading_comments: Vec<String>,
    /// The moves, in order.
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
    /// The start position (the `FEN` tag's, or the standard one).
    pub start: Position,
    /// The main line, with variations inside it.
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

/// One move of a line in its context: the position before it, the move, its text as
/// written and what follows it (NAGs, comments, variations). From [`Game::main_line`]
/// or [`Line::plies`].
#[derive(Debug, Clone)]
pub struct Ply<'g> {
    /// The position before the move.
    pub before: Position,
    /// The move.
    pub mv: Move,
    /// The move text as it was read (`炮二平五`, `C2.5`, `h2e2`…); empty for a game built
    /// in code (render one with [`crate::render`]).
    pub written: &'g str,
    /// Comments after the move.
    pub comments: &'g [String],
    /// NAGs and glyphs after the move.
    pub nags: &'g [String],
    /// The node itself, for anything else.
    pub node: &'g MoveNode,
}

impl<'g> Ply<'g> {
    /// The alternatives to this move, each iterated from the position before it.
    pub fn variations(&self) -> impl Iterator<Item = Plies<'g>> + '_ {
        self.node.variations.iter().map(|v| v.plies(&self.before))
    }

    /// The position after the move.
    pub fn after(&self) -> Position {
        let mut p = self.before.clone();
        p.play(self.mv);
        p
    }
}

/// Iterator over the moves of a line with their positions; see [`Ply`].
#[derive(Debug, Clone)]
pub struct Plies<'g> {
    pos: Position,
    moves: std::slice::Iter<'g, MoveNode>,
}

impl<'g> Iterator for Plies<'g> {
    type Item = Ply<'g>;

    fn next(&mut self) -> Option<Ply<'g>> {
        let node = self.moves.next()?;
        let before = self.pos.clone();
        self.pos.play(node.mv);
        Some(Ply {
            before,
            mv: node.mv,
            written: &node.source,
            comments: &node.comments,
            nags: &node.nags,
            node,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.moves.size_hint()
    }
}

impl Line {
    /// The moves of this line played from `start` (the position before its first move).
    pub fn plies(&self, start: &Position) -> Plies<'_> {
        Plies {
            pos: start.clone(),
            moves: self.moves.iter(),
        }
    }
}

impl Game {
    /// The main line as `(position before, move, text as written, comments)` items,
    /// variations reachable from each item.
    pub fn main_line(&self) -> Plies<'_> {
        self.line.plies(&self.start)
    }
}
