//! Ergonomic iteration: a line's half-moves with the position before each, the rules'
//! move, the notation in the record's letters, the comments that follow it and the
//! variations that replace it (each iterable the same way).

use crate::model::{Comment, Game, Item, Line, MoveNode, Side, Variation};
use crate::write::half_text;
use cescacs_rules::{Letters, Move, Position};

/// One half-move of a line, see [`Game::plies`].
#[derive(Debug, Clone)]
pub struct Ply<'g> {
    /// The position before the move.
    pub before: Position,
    /// The move, resolved against `before`.
    pub mv: Move,
    /// The half-move as read (number, side, check marker, assessment, indicators).
    pub node: &'g MoveNode,
    /// The move with its check marker and annotations, in the record's letters.
    pub notation: String,
    /// The comments written after the move (before the next one).
    pub comments: Vec<&'g Comment>,
    variations: Vec<(&'g Variation, Position)>,
    letters: crate::LetterTable,
}

impl<'g> Ply<'g> {
    /// The variations written after this move, each with an iterator over its plies
    /// from the position it starts from.
    pub fn variations(&self) -> impl Iterator<Item = (&'g Variation, Plies<'g>)> + '_ {
        self.variations
            .iter()
            .map(|(v, p)| (*v, Plies::new(&v.line, p.clone(), self.letters.clone())))
    }
}

/// Iterator over the plies of a line ([`Game::plies`], [`Ply::variations`]). Yields
/// `Err` with a message for a move that is not legal, then ends.
#[derive(Debug, Clone)]
pub struct Plies<'g> {
    items: &'g [Item],
    next: usize,
    pos: Position,
    /// (number, side, position before) of the half-moves played so far.
    history: Vec<(u32, Side, Position)>,
    letters: crate::LetterTable,
    done: bool,
}

impl<'g> Plies<'g> {
    /// The plies of `line` played from `start`; `letters` spell the notation.
    pub fn new(line: &'g Line, start: Position, letters: crate::LetterTable) -> Plies<'g> {
        Plies {
            items: &line.items,
            next: 0,
            pos: start,
            history: Vec::new(),
            letters,
            done: false,
        }
    }

    /// The position after the plies yielded so far.
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

impl<'g> Iterator for Plies<'g> {
    type Item = Result<Ply<'g>, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let at = self.items[self.next..]
            .iter()
            .position(|i| matches!(i, Item::Move(_)))?
            + self.next;
        let Item::Move(node) = &self.items[at] else {
            return None;
        };
        let resolved = crate::replay::move_text(node, &Letters::default())
            .map_err(|e| e.to_string())
            .and_then(|t| self.pos.resolve(&t).map_err(|e| e.to_string()));
        let mv = match resolved {
            Ok(r) => r.mv,
            Err(e) => {
                self.done = true;
                return Some(Err(format!(
                    "{}:{}: move {}: {e}",
                    node.span.line,
                    node.span.col,
                    node.token.to_standard()
                )));
            }
        };
        let before = self.pos.clone();
        self.history.push((node.number, node.side, before.clone()));
        let mut comments = Vec::new();
        let mut variations = Vec::new();
        let mut k = at + 1;
        while let Some(item) = self.items.get(k) {
            match item {
                Item::Move(_) => break,
                Item::Comment(c) => comments.push(c),
                Item::Variation(v) => {
                    let first = v.line.moves().next();
                    if let Some((_, _, p)) = first.and_then(|f| {
                        self.history
                            .iter()
                            .rev()
                            .find(|(n, s, _)| (*n, *s) == (f.number, f.side))
                    }) {
                        variations.push((v, p.clone()));
                    }
                }
            }
            k += 1;
        }
        self.next = k;
        self.pos.play_unchecked(mv);
        Some(Ok(Ply {
            notation: half_text(node, &self.letters),
            before,
            mv,
            node,
            comments,
            variations,
            letters: self.letters.clone(),
        }))
    }
}

impl Game {
    /// The main line's plies, from the start position (`TLPD` tag, else the initial
    /// position). `Err` when the start position cannot be read.
    ///
    /// ```
    /// let src = "1. E7-E13, E21-E15 {a comment}\n(1. …, F20-F16)\n2. F8-F12 *\n";
    /// let game = ctl_pgn::read_game(src).unwrap();
    /// for ply in game.plies().unwrap() {
    ///     let ply = ply.unwrap();
    ///     println!("{} {:?}: {}", ply.node.number, ply.before.side_to_move(), ply.notation);
    ///     for (_variation, alt) in ply.variations() {
    ///         assert_eq!(alt.count(), 1);
    ///     }
    /// }
    /// ```
    pub fn plies(&self) -> Result<Plies<'_>, String> {
        let letters = self.letters()?;
        let start = match self.start_tlpd() {
            Some(t) => cescacs_tlpd::parse(&letters.tlpd_to_standard(t))
                .map_err(|e| format!("start position: {e}"))?,
            None => Position::initial(),
        };
        Ok(Plies::new(&self.main, start, letters))
    }
}
