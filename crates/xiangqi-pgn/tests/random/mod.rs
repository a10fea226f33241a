//! Random legal xiangqi games built as `xiangqi_pgn::Game` models, for the property
//! tests: moves from the `xiangqi` crate's own generator, decorations (tags, comments,
//! NAGs and glyphs, nested variations, result) from the same seed.
//!
//! Also included by `pcn-convert`'s property tests (`#[path]`).

#![allow(dead_code)]

use xiangqi::Position;
use xiangqi_pgn::{Game, Line, MoveNode};

pub use test_support::Rng;

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub seed: u64,
    /// Random plies from the standard start to the game's start (0: standard start).
    pub prefix: usize,
    pub plies: usize,
    pub decorate: bool,
    /// Comments limited to ASCII and characters every legacy encoding has.
    pub narrow_text: bool,
}

pub fn random_position(rng: &mut Rng, plies: usize) -> Position {
    let mut pos = Position::initial();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
    pos
}

const WIDE: &[char] = &[
    'a', 'Z', '0', '9', ' ', ' ', '.', ',', '!', '?', '(', ')', '[', ']', '"', '\\', ';', '$', '%',
    '{', '}', '中', '炮', '二', 'é', '１', '＋', '…',
];
const NARROW: &[char] = &[
    'a', 'Z', '0', '9', ' ', ' ', '.', ',', '!', '?', '(', ')', '[', ']', '"', ';', '$', '{', '}',
    '中',
];

/// A comment as the reader keeps it: trimmed, one line.
fn comment(rng: &mut Rng, narrow: bool) -> String {
    let chars = if narrow { NARROW } else { WIDE };
    let mut s = String::new();
    for _ in 0..1 + rng.below(20) {
        s.push(rng.pick_cloned(chars));
    }
    s.trim().to_string()
}

const NAGS: &[&str] = &[
    "$1", "$2", "$3", "$4", "$5", "$6", "$14", "$146", "!", "?", "!?", "??",
];

fn node(rng: &mut Rng, mv: xiangqi::Move, decorate: bool, narrow: bool) -> MoveNode {
    let mut n = MoveNode {
        mv,
        source: String::new(),
        nags: Vec::new(),
        comments: Vec::new(),
        variations: Vec::new(),
    };
    if decorate {
        while rng.chance(12) {
            n.nags.push(rng.pick_cloned(NAGS).to_string());
        }
        while rng.chance(12) {
            n.comments.push(comment(rng, narrow));
        }
    }
    n
}

fn line(
    rng: &mut Rng,
    pos: &mut Position,
    plies: usize,
    first: Option<xiangqi::Move>,
    depth: usize,
    spec: &Spec,
) -> Line {
    let mut l = Line::default();
    if spec.decorate && rng.chance(10) {
        l.leading_comments.push(comment(rng, spec.narrow_text));
    }
    for i in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = match (i, first) {
            (0, Some(f)) => f,
            _ => moves[rng.below(moves.len())],
        };
        let mut n = node(rng, m, spec.decorate, spec.narrow_text);
        if spec.decorate && depth < 3 {
            while rng.chance(if depth == 0 { 10 } else { 5 }) {
                let alts: Vec<xiangqi::Move> = moves.iter().copied().filter(|&a| a != m).collect();
                if alts.is_empty() {
                    break;
                }
                let alt = alts[rng.below(alts.len())];
                let mut vp = pos.clone();
                let len = 1 + rng.below(5);
                n.variations
                    .push(line(rng, &mut vp, len, Some(alt), depth + 1, spec));
            }
        }
        pos.play(m);
        l.moves.push(n);
    }
    l
}

const TAGS: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "Red",
    "Black",
    "RedTeam",
    "BlackTeam",
    "Opening",
    "Variation",
    "ECCO",
    "Annotator",
    "TimeControl",
    "Xnote",
];

fn tag_value(rng: &mut Rng, narrow: bool) -> String {
    let chars: &[char] = if narrow {
        &['a', 'B', '1', ' ', '.', '-', '中', '"', '\\']
    } else {
        &[
            'a', 'B', '1', ' ', '.', '-', '中', '"', '\\', 'é', '象', '(', ')',
        ]
    };
    (0..rng.below(12)).map(|_| rng.pick_cloned(chars)).collect()
}

/// A random game as a model (sources empty, `source_notation` unset).
pub fn generate(spec: Spec) -> Game {
    let mut rng = Rng::new(spec.seed);
    let start = random_position(&mut rng, spec.prefix);
    let mut g = Game::new(start.clone());
    if spec.decorate {
        for _ in 0..rng.below(5) {
            let name = rng.pick_cloned(TAGS);
            let value = tag_value(&mut rng, spec.narrow_text);
            g.set_tag(name, &value);
        }
    }
    let mut pos = start;
    g.line = line(&mut rng, &mut pos, spec.plies, None, 0, &spec);
    g.result = rng.pick_cloned(&["*", "1-0", "0-1", "1/2-1/2"]).to_string();
    // A game with no legal move left has the result the rules give it (any other is
    // reported by the reader as contradicting the final position).
    if let Some(winner) = g.final_position().winner() {
        g.result = match winner {
            xiangqi::Side::Red => "1-0",
            xiangqi::Side::Black => "0-1",
        }
        .to_string();
    }
    g
}
