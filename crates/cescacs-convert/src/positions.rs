//! Board patterns and material signatures for `select` (pgn-extract's `--fenpattern`,
//! board-only FEN and `-z`), on the rectangular boards: chess (8×8) and xiangqi (9×10).
//! C'escacs' hexagonal board has no FEN ranks: these conditions never hold for it.
//!
//! A board is seen as its ranks from the top (the FEN order), each square empty or a
//! FEN letter (upper case White/Red, lower case Black).

use crate::record::Game;

/// One square of a board: `None` empty, else its FEN letter.
type Cell = Option<char>;

/// A board as FEN ranks, top first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Grid(Vec<Vec<Cell>>);

impl Grid {
    fn chess(board: &chess_pgn::cozy_chess::Board) -> Grid {
        use chess_pgn::cozy_chess::{Color, File, Rank, Square};
        let ranks = Rank::ALL.iter().rev().map(|&rank| {
            File::ALL
                .iter()
                .map(|&file| {
                    let sq = Square::new(file, rank);
                    let piece = board.piece_on(sq)?;
                    let c = char::from(piece);
                    Some(match board.color_on(sq) {
                        Some(Color::White) => c.to_ascii_uppercase(),
                        _ => c,
                    })
                })
                .collect()
        });
        Grid(ranks.collect())
    }

    fn xiangqi(p: &xiangqi::Position) -> Grid {
        let ranks = (0..10u8).rev().map(|rank| {
            (0..9u8)
                .map(|file| {
                    let sq = xiangqi::Square::new(file, rank)?;
                    p.piece_at(sq).map(xiangqi::Piece::fen_char)
                })
                .collect()
        });
        Grid(ranks.collect())
    }
}

/// One element of a pattern's rank.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// Exactly this (empty or a letter).
    Is(Cell),
    /// `?`: any square.
    Any,
    /// `!`: any occupied square.
    Occupied,
    /// A set of letters (`A`/`a` standing for any White/Black piece), or not of it with
    /// `^`: an occupied square only.
    Set(bool, Vec<char>),
    /// `*`: zero or more squares.
    Star,
}

fn one_of(letters: &[char], c: char) -> bool {
    letters.iter().any(|&l| {
        l == c || (l == 'A' && c.is_ascii_uppercase()) || (l == 'a' && c.is_ascii_lowercase())
    })
}

impl Token {
    fn accepts(&self, cell: Cell) -> bool {
        match self {
            Token::Is(want) => *want == cell,
            Token::Any | Token::Star => true,
            Token::Occupied => cell.is_some(),
            Token::Set(negated, letters) => cell.is_some_and(|c| one_of(letters, c) != *negated),
        }
    }
}

/// A board pattern, pgn-extract's `FENPattern`: FEN ranks (top first, `/` between) of
/// piece letters and digits (that many empty squares) with, besides, `?` any square,
/// `!` any occupied square, `A` any White (Red) piece, `a` any Black piece, `[..]` one
/// piece of a set and `[^..]` one piece not of it, `*` zero or more squares of
/// anything. A board-only FEN is a pattern with no wildcard: the placement exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardPattern {
    ranks: Vec<Vec<Token>>,
}

impl std::str::FromStr for BoardPattern {
    type Err = String;

    fn from_str(s: &str) -> Result<BoardPattern, String> {
        let text = s.split_whitespace().next().unwrap_or("");
        let fail = |why: &str| format!("board pattern {s:?}: {why}");
        let mut ranks = Vec::new();
        for rank in text.split('/') {
            let mut tokens = Vec::new();
            let mut chars = rank.chars();
            while let Some(c) = chars.next() {
                match c {
                    '1'..='9' => {
                        let n = c.to_digit(10).expect("a digit") as usize;
                        tokens.extend(std::iter::repeat_n(Token::Is(None), n));
                    }
                    '?' => tokens.push(Token::Any),
                    '!' => tokens.push(Token::Occupied),
                    '*' => tokens.push(Token::Star),
                    'A' | 'a' => tokens.push(Token::Set(false, vec![c])),
                    '[' => {
                        let mut set = String::new();
                        loop {
                            match chars.next() {
                                Some(']') => break,
                                Some(c) if c.is_ascii_alphabetic() || c == '^' => set.push(c),
                                _ => return Err(fail("expected piece letters and ']'")),
                            }
                        }
                        let negated = set.starts_with('^');
                        let letters: Vec<char> = set.chars().filter(|&c| c != '^').collect();
                        if letters.is_empty() {
                            return Err(fail("an empty set []"));
                        }
                        tokens.push(Token::Set(negated, letters));
                    }
                    c if c.is_ascii_alphabetic() => tokens.push(Token::Is(Some(c))),
                    _ => return Err(fail(&format!("{c:?} is not a FEN letter or a wildcard"))),
                }
            }
            ranks.push(tokens);
        }
        if !matches!(ranks.len(), 8 | 10) {
            return Err(fail("expected 8 ranks (chess) or 10 (xiangqi)"));
        }
        Ok(BoardPattern { ranks })
    }
}

/// Whether `tokens` match the whole of `cells` (`*` over any run of squares), by a
/// table of (token, square) prefixes: at most 10 × 10 steps a rank.
fn rank_matches(tokens: &[Token], cells: &[Cell]) -> bool {
    let mut can = vec![false; cells.len() + 1];
    can[0] = true;
    for token in tokens {
        let mut next = vec![false; cells.len() + 1];
        for i in 0..=cells.len() {
            if !can[i] {
                continue;
            }
            if *token == Token::Star {
                next[i..].iter_mut().for_each(|b| *b = true);
                break;
            }
            if i < cells.len() && token.accepts(cells[i]) {
                next[i + 1] = true;
            }
        }
        can = next;
    }
    can[cells.len()]
}

impl BoardPattern {
    fn matches(&self, grid: &Grid) -> bool {
        self.ranks.len() == grid.0.len()
            && self
                .ranks
                .iter()
                .zip(&grid.0)
                .all(|(tokens, cells)| rank_matches(tokens, cells))
    }
}

/// How many of one piece a side of a [`Material`] signature asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    Exactly(u32),
    AtLeast(u32),
    AtMost(u32),
}

impl Count {
    fn holds(self, n: u32) -> bool {
        match self {
            Count::Exactly(k) => n == k,
            Count::AtLeast(k) => n >= k,
            Count::AtMost(k) => n <= k,
        }
    }
}

/// A material signature, pgn-extract's `-z`: the men of one side and of the other,
/// kings (generals) aside, matched from either side's point of view (see
/// docs/select.md): `QR2P3 Q R P3+` (pgn-extract's letters: a letter, optionally a
/// count `d`, `d+` at least, `d-` at most, `+` one or more, `*` any number; a letter
/// not listed is absent), or `Q+R vs R` (the pieces joined by `+`, each letter one man:
/// `RR` two rooks). Letters are the FEN letters of chess or xiangqi, in any case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    sides: [Vec<(char, Count)>; 2],
    /// pgn-extract's stability (a leading number; 2 by default, so that the middle of
    /// an exchange does not count): the material must hold on this many positions
    /// plus one in a row, the main line's last position left out (see
    /// `BoardTest::stable`).
    stable: usize,
}

fn material_side(text: &str, readable: bool) -> Result<Vec<(char, Count)>, String> {
    let mut wanted: Vec<(char, Count)> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if readable && c == '+' {
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(format!("{c:?} is not a piece letter"));
        }
        let letter = c.to_ascii_uppercase();
        let count = if readable {
            let prior = wanted.iter().position(|(l, _)| *l == letter);
            if let Some(i) = prior {
                if let Count::Exactly(k) = wanted[i].1 {
                    wanted[i].1 = Count::Exactly(k + 1);
                }
                continue;
            }
            Count::Exactly(1)
        } else {
            let digits: String =
                std::iter::from_fn(|| chars.next_if(char::is_ascii_digit)).collect();
            let n = digits.parse::<u32>().ok();
            match (n, chars.next_if(|&c| "+-*".contains(c))) {
                (None, None) => Count::Exactly(1),
                (None, Some('+')) => Count::AtLeast(1),
                (None, Some('*')) => Count::AtLeast(0),
                (Some(n), None) => Count::Exactly(n),
                (Some(n), Some('+')) => Count::AtLeast(n),
                (Some(n), Some('-')) => Count::AtMost(n),
                _ => return Err(format!("{c:?}: expected a count d, d+, d-, + or *")),
            }
        };
        // `RR` is two rooks, as `R2`; `R2R+` means nothing.
        match (wanted.iter_mut().find(|(l, _)| *l == letter), count) {
            (Some((_, Count::Exactly(k))), Count::Exactly(n)) => *k += n,
            (Some(_), _) => return Err(format!("{c:?} given twice with a range")),
            (None, _) => wanted.push((letter, count)),
        }
    }
    wanted.retain(|(l, _)| *l != 'K');
    Ok(wanted)
}

impl std::str::FromStr for Material {
    type Err = String;

    fn from_str(s: &str) -> Result<Material, String> {
        let fail = |e: String| format!("material {s:?}: {e}");
        let trimmed = s.trim_start();
        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
        let (stable, s) = match digits {
            0 => (2, s),
            n if trimmed[n..].starts_with(' ') => (
                trimmed[..n]
                    .parse()
                    .map_err(|_| fail("a stability too large".into()))?,
                &trimmed[n..],
            ),
            _ => (2, s),
        };
        let lower = s.to_ascii_lowercase();
        let (a, b, readable) = match lower.find(" vs ") {
            Some(at) => (&s[..at], &s[at + 4..], true),
            None => {
                let mut parts = s.split_whitespace();
                match (parts.next(), parts.next(), parts.next()) {
                    (Some(a), Some(b), None) => (a, b, false),
                    (Some(a), None, None) => (a, "", false),
                    _ => return Err(fail("expected two sides, `QR P` or `Q+R vs R`".into())),
                }
            }
        };
        let side = |t: &str| material_side(&t.replace(' ', ""), readable).map_err(fail);
        Ok(Material {
            sides: [side(a)?, side(b)?],
            stable,
        })
    }
}

/// Men of each side by upper-case letter, kings (generals) aside.
fn census(grid: &Grid) -> [Vec<(char, u32)>; 2] {
    let mut sides: [Vec<(char, u32)>; 2] = [Vec::new(), Vec::new()];
    for c in grid.0.iter().flatten().flatten() {
        let side = usize::from(c.is_ascii_lowercase());
        let letter = c.to_ascii_uppercase();
        if letter == 'K' {
            continue;
        }
        match sides[side].iter_mut().find(|(l, _)| *l == letter) {
            Some((_, n)) => *n += 1,
            None => sides[side].push((letter, 1)),
        }
    }
    sides
}

fn side_has(men: &[(char, u32)], wanted: &[(char, Count)]) -> bool {
    let count = |l: char| men.iter().find(|(m, _)| *m == l).map_or(0, |(_, n)| *n);
    wanted.iter().all(|&(l, c)| c.holds(count(l)))
        && men
            .iter()
            .all(|(l, n)| *n == 0 || wanted.iter().any(|(w, _)| w == l))
}

impl Material {
    fn matches(&self, grid: &Grid) -> bool {
        let men = census(grid);
        let [a, b] = &self.sides;
        (side_has(&men[0], a) && side_has(&men[1], b))
            || (side_has(&men[0], b) && side_has(&men[1], a))
    }
}

/// The placement (FEN's first field) after a line of moves played from the standard
/// start, as pgn-extract's `-x` file lists them: moves separated by spaces, move numbers
/// optional (`1.`, `1...`, `1.e4`), a result or `*` at the end ignored. Chess moves (SAN
/// or UCI) are tried first, then xiangqi moves (ICCS, WXF, Chinese). `None` when some
/// move is not legal in either game.
///
/// ```
/// use cescacs_convert::after_moves;
/// assert_eq!(after_moves("1. e4 c5 2. Nf3").as_deref(),
///     Some("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R"));
/// assert!(after_moves("e4 e4").is_none());
/// ```
pub fn after_moves(line: &str) -> Option<String> {
    let moves: Vec<&str> = line
        .split_whitespace()
        .filter(|t| !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
        // `12.`, `12...`, `12.e4`: the number goes.
        .map(|t| match t.rfind('.') {
            Some(i) if t[..i].bytes().all(|b| b.is_ascii_digit() || b == b'.') => &t[i + 1..],
            _ => t,
        })
        .filter(|t| !t.is_empty())
        .collect();
    if moves.is_empty() {
        return None;
    }
    let mut board = chess_pgn::cozy_chess::Board::default();
    let chess = moves
        .iter()
        .all(|t| match crate::chess_move(&board, t, false) {
            Some(m) => {
                board.play_unchecked(m);
                true
            }
            None => false,
        });
    if chess {
        return board.to_string().split(' ').next().map(str::to_string);
    }
    let mut p = xiangqi::Position::initial();
    for t in &moves {
        let m = crate::xiangqi_move(&p, t)?;
        p.play(m);
    }
    p.to_fen().split(' ').next().map(str::to_string)
}

/// A condition on one position of a game's main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardTest {
    /// The placement matches a [`BoardPattern`].
    Pattern(BoardPattern),
    /// The material matches a [`Material`] signature.
    Material(Material),
}

impl BoardTest {
    fn holds(&self, grid: &Grid) -> bool {
        match self {
            BoardTest::Pattern(p) => p.matches(grid),
            BoardTest::Material(m) => m.matches(grid),
        }
    }

    /// Consecutive positions that must pass, and whether the main line's last
    /// position is left out. A material signature follows pgn-extract's `-z`, checked
    /// on the position before each move (the start, not the end) and holding for its
    /// stability plus one such positions in a row: measured on pgn-extract 19.04, a
    /// balance reached by the last move never matches, one that holds on the positions
    /// before the last two moves matches with stability 1 and not 2 (docs/select.md).
    fn stable(&self) -> (usize, bool) {
        match self {
            BoardTest::Pattern(_) => (1, false),
            BoardTest::Material(m) => (m.stable + 1, true),
        }
    }
}

/// Whether some position of the main line (its start included) passes one of `tests`
/// (as many positions in a row as the test asks).
pub(crate) fn reaches(game: &Game, tests: &[BoardTest]) -> bool {
    let mut runs = vec![0usize; tests.len()];
    let mut hit = |grid: Grid, last: bool| {
        tests.iter().zip(runs.iter_mut()).any(|(t, run)| {
            let (need, skip_last) = t.stable();
            if last && skip_last {
                return false;
            }
            *run = if t.holds(&grid) { *run + 1 } else { 0 };
            *run >= need
        })
    };
    match game {
        Game::Chess(g) => {
            let mut board = g.start.clone();
            let n = g.moves.moves.len();
            if hit(Grid::chess(&board), n == 0) {
                return true;
            }
            for (i, node) in g.moves.moves.iter().enumerate() {
                match node.mv {
                    Some(m) => board.play_unchecked(m),
                    None => match board.null_move() {
                        Some(b) => board = b,
                        None => return false,
                    },
                }
                if hit(Grid::chess(&board), i + 1 == n) {
                    return true;
                }
            }
            false
        }
        Game::Xiangqi(g) => {
            let mut p = g.start.clone();
            let n = g.line.moves.len();
            if hit(Grid::xiangqi(&p), n == 0) {
                return true;
            }
            g.line.moves.iter().enumerate().any(|(i, m)| {
                p.play(m.mv);
                hit(Grid::xiangqi(&p), i + 1 == n)
            })
        }
        Game::Cescacs { .. } | Game::Pcn(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(fen: &str) -> Grid {
        Grid::chess(&fen.parse().unwrap())
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn patterns_follow_pgn_extract() {
        let start = chess(START);
        let p = |s: &str| s.parse::<BoardPattern>().unwrap().matches(&start);
        assert!(
            p("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
            "board-only FEN"
        );
        assert!(p("rnbqkbnr/*/*/*/*/*/*/RNBQKBNR"));
        assert!(p("????????/aaaaaaaa/8/*/*/8/AAAAAAAA/R?B[Qq]!*"));
        assert!(!p("rnbqkbnr/*/*/*/*/*/*/RNBQKBN1"));
        assert!(!p("rnbqkbnr/*/*/*/*/*/*/R[^N]*"));
        assert!(p("rnbqkbnr/*/*/*/*/*/*/R[^BQ]*"));
        assert!(
            !p("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN"),
            "a short rank"
        );
        assert!("8/8/8".parse::<BoardPattern>().is_err());
        assert!("rnbqkbnr/*/*/*/*/*/*/R[]*".parse::<BoardPattern>().is_err());
        let xq = Grid::xiangqi(
            &xiangqi::Position::from_fen(
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            )
            .unwrap(),
        );
        let p: BoardPattern = "rnbakabnr/*/*/*/*/*/*/*/*/RNBAKABNR".parse().unwrap();
        assert!(p.matches(&xq) && !p.matches(&start));
    }

    #[test]
    fn material_both_ways() {
        let rook_ending = chess("8/5k2/8/8/3R4/8/1P6/K7 w - - 0 1");
        let m = |s: &str| s.parse::<Material>().unwrap().matches(&rook_ending);
        assert!(m("RP") && m("rp k") && m("KRP k") && m(" vs R+P") && m("R+P vs "));
        assert!(m("R*P+Q*") && m("RP1- ") && !m("R2 P") && !m("R"));
        assert!(!m("RP P"), "Black has no pawn");
        assert!("R? Q".parse::<Material>().is_err() && "RR+ Q".parse::<Material>().is_err());
        assert!("RR Q".parse::<Material>().unwrap() == "R2 Q".parse().unwrap());
        let start = chess(START);
        assert!(
            "QR2B2N2P8 QR2B2N2P8"
                .parse::<Material>()
                .unwrap()
                .matches(&start)
        );
        assert!(
            "QRRBBNNPPPPPPPP vs QRRBBNNPPPPPPPP"
                .parse::<Material>()
                .is_ok()
        );
        assert!(
            !"QRRBBNNPPPPPPP vs QRRBBNNPPPPPPPP"
                .parse::<Material>()
                .unwrap()
                .matches(&start)
        );
        assert!(
            "QRRBBNNPPPPPPPP vs QRRBBNNPPPPPPPP"
                .parse::<Material>()
                .unwrap()
                .matches(&start)
        );
    }
}
