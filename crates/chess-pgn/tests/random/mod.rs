//! Random legal chess games built as `chess_pgn::Game` models, for the property tests:
//! moves from cozy-chess's generator (standard or Chess960 start, optionally advanced
//! by random play to a FEN start), null moves, decorations (tags, comments with
//! `[%clk]`/`[%eval]` commands, NAGs, nested variations, result, final comments) from
//! the same seed.
//!
//! Also included by `pcn-convert`'s property tests (`#[path]`).

#![allow(dead_code)]

use chess_pgn::cozy_chess::{Board, Move};
use chess_pgn::parse_commands;
use chess_pgn::{After, Game, Line, MoveNode, Outcome, San, SanPlus, Variant};

pub use test_support::Rng;

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub seed: u64,
    pub chess960: bool,
    /// Random plies from the start position to the game's (FEN) start.
    pub prefix: usize,
    pub plies: usize,
    pub decorate: bool,
}

pub fn legal_moves(b: &Board) -> Vec<Move> {
    let mut v = Vec::new();
    b.generate_moves(|ms| {
        v.extend(ms);
        false
    });
    v
}

/// A start board: standard or a random Chess960 one, then `plies` random moves.
pub fn random_board(rng: &mut Rng, chess960: bool, plies: usize) -> Board {
    let mut b = if chess960 {
        Board::chess960_startpos(rng.below(960) as u32)
    } else {
        Board::default()
    };
    for _ in 0..plies {
        let ms = legal_moves(&b);
        if ms.is_empty() {
            break;
        }
        b.play_unchecked(ms[rng.below(ms.len())]);
    }
    b
}

const WORDS: &[&str] = &[
    "good",
    "Nf3!?",
    "a",
    "(sic)",
    "1-0",
    "*",
    "$1",
    "é",
    "中文",
    "\"quoted\"",
    ";",
    "%",
    "[x]",
    "[%clk 0:03:05]",
    "[%clk 1:00:00.5]",
    "[%eval 0.17]",
    "[%eval #-3]",
    "{",
    "}",
    "\\",
    "--",
];

/// A comment as the reader keeps it: words separated by single spaces.
fn comment(rng: &mut Rng) -> String {
    let n = rng.below(6);
    (0..n)
        .map(|_| rng.pick_cloned(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

fn line(
    rng: &mut Rng,
    board: &Board,
    plies: usize,
    first: Option<Option<Move>>,
    depth: usize,
    decorate: bool,
) -> Line {
    let mut l = Line::default();
    if decorate && rng.chance(8) {
        l.comments.push(comment(rng));
    }
    let mut b = board.clone();
    for i in 0..plies {
        let ms = legal_moves(&b);
        if ms.is_empty() {
            break;
        }
        let mv = match (i, first) {
            (0, Some(f)) => f,
            // A null move now and then, when the side to move is not in check.
            _ if rng.chance(3) && b.null_move().is_some() => None,
            _ => Some(ms[rng.below(ms.len())]),
        };
        let mut after_board = b.clone();
        let san = match mv {
            Some(m) => {
                after_board.play_unchecked(m);
                SanPlus::from_move(&b, m)
            }
            None => {
                after_board = b.null_move().expect("not in check");
                SanPlus {
                    san: San::Null,
                    suffix: chess_pgn::Suffix::of(&after_board),
                    glyph: None,
                }
            }
        };
        let mut node = MoveNode {
            mv,
            san,
            nags: Vec::new(),
            after: Vec::new(),
            clock: None,
            eval: None,
        };
        if decorate {
            while rng.chance(12) {
                node.nags.push(1 + rng.below(255) as u8);
            }
            while rng.chance(15) {
                if depth < 3 && rng.chance(50) {
                    let alts: Vec<Move> = ms.iter().copied().filter(|&a| Some(a) != mv).collect();
                    if let Some(&alt) = alts.get(rng.below(alts.len().max(1))) {
                        let len = 1 + rng.below(5);
                        node.after.push(After::Variation(line(
                            rng,
                            &b,
                            len,
                            Some(Some(alt)),
                            depth + 1,
                            decorate,
                        )));
                    }
                } else {
                    let c = comment(rng);
                    let (clk, ev) = parse_commands(&c);
                    node.clock = clk.or(node.clock);
                    node.eval = ev.or(node.eval);
                    node.after.push(After::Comment(c));
                }
            }
        }
        l.moves.push(node);
        b = after_board;
    }
    l
}

const TAGS: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Annotator",
    "ECO",
    "TimeControl",
    "WhiteElo",
    "Xnote",
    "PlyCount",
];

fn tag_value(rng: &mut Rng) -> String {
    let chars = [
        'a', 'B', '1', ' ', '.', '-', '?', '"', '\\', 'é', '中', '[', ']',
    ];
    let s: String = (0..rng.below(12))
        .map(|_| rng.pick_cloned(&chars))
        .collect();
    s
}

/// A random game as a model.
pub fn generate(spec: Spec) -> Game {
    let mut rng = Rng::new(spec.seed);
    let start = random_board(&mut rng, spec.chess960, spec.prefix);
    let mut tags: Vec<(String, String)> = Vec::new();
    if spec.decorate {
        for _ in 0..rng.below(6) {
            let name = rng.pick_cloned(TAGS);
            if !tags.iter().any(|(n, _)| n == name) {
                tags.push((name.to_string(), tag_value(&mut rng)));
            }
        }
    }
    if spec.chess960 {
        tags.push(("Variant".into(), "Chess960".into()));
    }
    let moves = line(&mut rng, &start, spec.plies, None, 0, spec.decorate);
    let mut final_comments = Vec::new();
    if spec.decorate && rng.chance(15) {
        final_comments.push(comment(&mut rng));
    }
    let mut game = Game {
        tags,
        variant: if spec.chess960 {
            Variant::Chess960
        } else {
            Variant::Standard
        },
        start,
        moves,
        outcome: rng.pick_cloned(&[
            Outcome::Unknown,
            Outcome::WhiteWins,
            Outcome::BlackWins,
            Outcome::Draw,
        ]),
        final_comments,
        ..Game::default()
    };
    // A game that ends in mate or stalemate has the result the rules give it (any
    // other is reported by the reader as contradicting the final position).
    let end = game.final_board();
    if !end.generate_moves(|_| true) {
        game.outcome = match (end.checkers().is_empty(), end.side_to_move()) {
            (true, _) => Outcome::Draw,
            (false, chess_pgn::cozy_chess::Color::White) => Outcome::BlackWins,
            (false, chess_pgn::cozy_chess::Color::Black) => Outcome::WhiteWins,
        };
    }
    game
}
