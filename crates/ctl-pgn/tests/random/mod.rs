//! Random legal C'escacs games written as CTL-PGN text, for the property tests. The
//! moves come from `cescacs-rules`' own generator and are spelled by its own writer;
//! the decorations (tags, start TLPD, comments of every kind, assessments, draw offers,
//! labelled and nested variations, final comments) come from the same seed.
//!
//! Also included by `pcn-convert`'s property tests (`#[path]`).

#![allow(dead_code)]

use cescacs_rules::an::AnStyle;
use cescacs_rules::{Letters, Move, Position, Side, Status};

pub use test_support::Rng;

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub seed: u64,
    /// Random plies played from the initial position to reach the start position (0:
    /// the initial position, no TLPD tag).
    pub prefix: usize,
    /// Main-line half-moves (fewer if the game ends).
    pub plies: usize,
    /// Tags, comments, assessments, draw offers, variations.
    pub decorate: bool,
}

/// A generated record.
pub struct Generated {
    pub text: String,
    pub start: Position,
    pub end: Position,
    pub moves: Vec<Move>,
    /// Check markers in the rich style (`+^`, `+∞`) rather than the seed's.
    pub rich: bool,
}

/// A random position reached by `plies` random legal moves from the initial one (fewer
/// if the game ends on the way).
pub fn random_position(rng: &mut Rng, plies: usize) -> Position {
    let mut pos = Position::initial();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    pos
}

const COMMENT_CHARS: &[char] = &[
    'a', 'b', 'c', 'x', 'y', 'z', 'A', 'K', 'W', 'B', '0', '1', '7', ' ', ' ', ' ', '.', ',', ';',
    ':', '!', '?', '\'', '"', '(', ')', '[', ']', '=', '+', '-', '#', '@', '~', '$', '*', '/', 'é',
    '♔', '中', '…', '×',
];

/// Comment text: never a brace, and starting with a letter or a space so that it
/// cannot be taken for a kind marker.
fn comment_text(rng: &mut Rng) -> String {
    let mut s = String::new();
    s.push(*rng.pick(&['a', 'Z', ' ', 'é']));
    for _ in 0..rng.below(24) {
        s.push(*rng.pick(COMMENT_CHARS));
    }
    if rng.chance(10) {
        s.push('\n');
        s.push_str("second line");
    }
    s
}

fn comment(rng: &mut Rng) -> String {
    let marker = *rng.pick(&["", "", "@W:", "@B:", "#", "#W:", "#B:"]);
    format!("{{{marker}{}}}", comment_text(rng))
}

const TAG_NAMES: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Annotator",
    "Id",
    "Mode",
    "TimeControl",
    "Xcomment",
];

fn tag_value(rng: &mut Rng) -> String {
    let chars = [
        'a', 'B', '1', '.', ' ', '-', ',', '?', 'ñ', '\'', ':', '/', '(', ')',
    ];
    (0..rng.below(16)).map(|_| *rng.pick(&chars)).collect()
}

const ASSESSMENTS: &[&str] = &["!", "?", "!!", "??", "!?", "?!", "◇"];

struct Writer<'a> {
    rng: &'a mut Rng,
    letters: Letters,
    style: AnStyle,
    decorate: bool,
    rows: Vec<String>,
}

impl Writer<'_> {
    /// Plays `plies` random moves from `pos`, writing one row per half-move (the first
    /// move is `first` when given), with decorations and variations. Returns the moves.
    fn line(
        &mut self,
        pos: &mut Position,
        depth: usize,
        plies: usize,
        first: Option<Move>,
        last_row_of_game: bool,
    ) -> Vec<Move> {
        let dots = ".".repeat(depth);
        let mut played = Vec::new();
        let mut number = pos.fullmove_number().unwrap_or(1);
        for i in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = match (i, first) {
                (0, Some(f)) => f,
                _ => moves[self.rng.below(moves.len())],
            };
            let token = pos.move_to_an_with(m, &self.letters, self.style);
            let side = pos.side_to_move();
            let mut row = match side {
                Side::White => format!("{dots}{number}. {token}"),
                Side::Black => format!("{dots}{number}. …, {token}"),
            };
            let mut tail = String::new();
            if self.decorate && self.rng.chance(15) {
                let a: &&str = self.rng.pick(ASSESSMENTS);
                tail.push_str(a);
            }
            if self.decorate && self.rng.chance(5) {
                tail.push_str("(=)");
            }
            let before = pos.clone();
            pos.play_unchecked(m);
            played.push(m);
            let last = i + 1 == plies || pos.status() != Status::Ongoing;
            if last && last_row_of_game && !token.ends_with('#') {
                tail.push(':');
            }
            if !tail.is_empty() {
                row.push(' ');
                row.push_str(&tail);
            }
            self.rows.push(row);
            if self.decorate && self.rng.chance(12) {
                let c = comment(self.rng);
                self.rows.push(format!("{dots}{c}"));
            }
            if self.decorate && depth < 3 && self.rng.chance(if depth == 0 { 12 } else { 6 }) {
                let alternatives: Vec<Move> = before
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&a| a != m)
                    .collect();
                if !alternatives.is_empty() {
                    let alt = alternatives[self.rng.below(alternatives.len())];
                    let inner = ".".repeat(depth + 1);
                    let start_row = self.rows.len();
                    let len = 1 + self.rng.below(5);
                    let mut vp = before.clone();
                    self.line(&mut vp, depth + 1, len, Some(alt), false);
                    let label = if self.rng.chance(40) {
                        format!("$[{}] ", 1 + self.rng.below(3))
                    } else {
                        String::new()
                    };
                    let first_row = &mut self.rows[start_row];
                    let body = first_row[inner.len()..].to_string();
                    *first_row = format!("{inner}({label}{body}");
                    match self.rows.last_mut() {
                        Some(r) if !r.ends_with('}') => r.push(')'),
                        _ => self.rows.push(format!("{inner})")),
                    }
                }
            }
            if side == Side::Black {
                number += 1;
            }
        }
        played
    }
}

/// Generates a record; its text reads and replays without errors.
pub fn generate(spec: Spec) -> Generated {
    let mut rng = Rng::new(spec.seed);
    let start = random_position(&mut rng, spec.prefix);
    let rich = rng.chance(50);
    let style = if rich { AnStyle::RICH } else { AnStyle::SEED };
    let mut text = String::from("[Variant \"C'escacs\"]\n");
    if spec.decorate {
        for _ in 0..rng.below(5) {
            let name = *rng.pick(TAG_NAMES);
            let value = tag_value(&mut rng);
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
    }
    if spec.prefix > 0 {
        text.push_str(&format!("[TLPD \"{}\"]\n", cescacs_tlpd::write(&start)));
    }
    let mut w = Writer {
        rng: &mut rng,
        letters: Letters::default(),
        style,
        decorate: spec.decorate,
        rows: Vec::new(),
    };
    if spec.decorate && w.rng.chance(20) {
        let c = comment(w.rng);
        w.rows.push(c);
    }
    let mut end = start.clone();
    let moves = w.line(&mut end, 0, spec.plies, None, true);
    let rows = std::mem::take(&mut w.rows);
    for r in rows {
        text.push_str(&r);
        text.push('\n');
    }
    let result = match end.status() {
        Status::Checkmate => match end.side_to_move() {
            Side::White => "0-3",
            Side::Black => "3-0",
        },
        Status::Stalemate => match end.side_to_move() {
            Side::White => "1-2",
            Side::Black => "2-1",
        },
        Status::Ongoing => *rng.pick(&["*", "*", "1-1", "3-0", "0-3"]),
    };
    text.push_str(result);
    text.push('\n');
    if spec.decorate && rng.chance(20) {
        text.push_str(&comment(&mut rng));
        text.push('\n');
    }
    Generated {
        text,
        start,
        end,
        moves,
        rich,
    }
}
