//! Rules-specific tables built once: promotion and triple-step cells, castlings,
//! alignment with the King, Zobrist keys.

use crate::piece::Side;
use cescacs_hex::{Cell, Direction};
use std::sync::LazyLock;

pub(crate) const NO_DIR: u8 = 0xFF;

/// No cell, in tables of cell indices.
pub(crate) const NO_CELL: u8 = 0xFF;

pub(crate) fn cell(s: &str) -> Cell {
    s.parse().expect("table cell names are valid")
}

/// One of the 24 castlings, with White's cells (Black's are the mirror images).
#[derive(Clone, Debug)]
pub(crate) struct CastlingDef {
    pub name: String,
    pub king_to: [Cell; 2],
    /// (rook origin, rook destination, cells passed including the destination), per side.
    pub rooks: Vec<[(Cell, Cell, Vec<Cell>); 2]>,
}

pub(crate) struct Tables {
    pub promotion: [[bool; 169]; 2],
    /// The same as 169-bit masks, for a quick test against occupancy.
    pub promotion_bits: [[u64; 3]; 2],
    /// Per side, the cells from which one pawn move (a step, double or triple step
    /// forward, an oblique step or a capture) can reach a promotion cell: the pawns
    /// elsewhere arrive on ordinary cells only, one move per arrival.
    pub near_promotion: [[u64; 3]; 2],
    /// Per side and cell, a pawn's target cells by index ([`NO_CELL`] for none): one,
    /// two and three steps forward (the third only from a triple-step cell), the two
    /// oblique steps, the two captures. One load per target in perft's leaf count.
    pub pawn_targets: [Vec<[u8; 7]>; 2],
    pub triple: [[bool; 169]; 2],
    /// Direction index + 0 from the first cell to the second, or NO_DIR when not on one line.
    pub align: Vec<[u8; 169]>,
    pub castlings: Vec<CastlingDef>,
    /// Per cell, the cells a knight jump away as a 169-bit set ([`Cell::index`] order).
    pub knight_bits: Vec<[u64; 3]>,
    pub king_home: [Cell; 2],
    /// [side][0 = queen's rook C3/C25, 1 = king's rook I3/I25]
    pub rook_home: [[Cell; 2]; 2],
    pub zobrist_piece: Vec<[u64; 169]>,
    pub zobrist_castling: [u64; 6],
    pub zobrist_special: [u64; 169],
    pub zobrist_black: u64,
}

fn forward_dir(side: Side) -> Direction {
    match side {
        Side::White => Direction::ColumnUp,
        Side::Black => Direction::ColumnDown,
    }
}

fn build() -> Tables {
    let promotion = build_promotion();
    let triple = build_triple();
    let zobrist = Zobrist::new();
    Tables {
        promotion_bits: promotion_bits(&promotion),
        near_promotion: near_promotion(&promotion),
        pawn_targets: pawn_targets(&triple),
        promotion,
        triple,
        align: build_align(),
        castlings: build_castlings(),
        knight_bits: knight_bits(),
        king_home: [cell("G1"), cell("G27")],
        rook_home: [[cell("C3"), cell("I3")], [cell("C25"), cell("I25")]],
        zobrist_piece: zobrist.piece,
        zobrist_castling: zobrist.castling,
        zobrist_special: zobrist.special,
        zobrist_black: zobrist.black,
    }
}

/// Per side, the cells with no cell forward: where a pawn promotes.
fn build_promotion() -> [[bool; 169]; 2] {
    let mut promotion = [[false; 169]; 2];
    for c in Cell::all() {
        for side in [Side::White, Side::Black] {
            if c.step(forward_dir(side)).is_none() {
                promotion[side.index()][c.index()] = true;
            }
        }
    }
    promotion
}

/// The promotion cells as 169-bit masks.
fn promotion_bits(promotion: &[[bool; 169]; 2]) -> [[u64; 3]; 2] {
    let mut promotion_bits = [[0u64; 3]; 2];
    for c in Cell::all() {
        for (s, bits) in promotion_bits.iter_mut().enumerate() {
            if promotion[s][c.index()] {
                bits[c.index() >> 6] |= 1 << (c.index() & 63);
            }
        }
    }
    promotion_bits
}

/// A pawn's moves of one side: forward, the two oblique steps, the two captures.
fn pawn_directions(side: Side) -> (Direction, [Direction; 2], [Direction; 2]) {
    match side {
        Side::White => (
            Direction::ColumnUp,
            [Direction::FileUp, Direction::FileInvUp],
            [Direction::LineUp, Direction::LineInvUp],
        ),
        Side::Black => (
            Direction::ColumnDown,
            [Direction::FileDown, Direction::FileInvDown],
            [Direction::LineDown, Direction::LineInvDown],
        ),
    }
}

/// Per side, the cells from which one pawn move reaches a promotion cell.
fn near_promotion(promotion: &[[bool; 169]; 2]) -> [[u64; 3]; 2] {
    let mut near_promotion = [[0u64; 3]; 2];
    for c in Cell::all() {
        for side in [Side::White, Side::Black] {
            let (f, [o1, o2], [c1, c2]) = pawn_directions(side);
            let others = [o1, o2, c1, c2];
            let ahead = c.ray(f).iter().take(3).copied();
            let mut reached = ahead.chain(others.iter().filter_map(|&d| c.step(d)));
            if reached.any(|t| promotion[side.index()][t.index()]) {
                near_promotion[side.index()][c.index() >> 6] |= 1 << (c.index() & 63);
            }
        }
    }
    near_promotion
}

/// Per side, the cells from which a pawn may step three cells forward.
fn build_triple() -> [[bool; 169]; 2] {
    let mut triple = [[false; 169]; 2];
    for name in ["B4", "C5", "D6", "E7", "G7", "H6", "I5", "K4"] {
        let w = cell(name);
        triple[0][w.index()] = true;
        triple[1][w.mirrored().index()] = true;
    }
    triple
}

/// Per side and cell, a pawn's target cells by index (see [`Tables::pawn_targets`]).
fn pawn_targets(triple: &[[bool; 169]; 2]) -> [Vec<[u8; 7]>; 2] {
    let mut pawn_targets = [vec![[NO_CELL; 7]; 169], vec![[NO_CELL; 7]; 169]];
    for c in Cell::all() {
        for side in [Side::White, Side::Black] {
            let (f, oblique, capture) = pawn_directions(side);
            let t = &mut pawn_targets[side.index()][c.index()];
            let steps = if triple[side.index()][c.index()] {
                3
            } else {
                2
            };
            for (k, &to) in c.ray(f).iter().take(steps).enumerate() {
                t[k] = to.index() as u8;
            }
            for (k, d) in oblique.into_iter().chain(capture).enumerate() {
                if let Some(to) = c.step(d) {
                    t[3 + k] = to.index() as u8;
                }
            }
        }
    }
    pawn_targets
}

/// The direction from each cell to each other on one of its rays (see [`Tables::align`]).
fn build_align() -> Vec<[u8; 169]> {
    let mut align = vec![[NO_DIR; 169]; 169];
    for a in Cell::all() {
        for d in Direction::ALL {
            for &b in a.ray(d) {
                align[a.index()][b.index()] = d as u8;
            }
        }
    }
    align
}

/// Per cell, the knight jumps as a 169-bit set.
fn knight_bits() -> Vec<[u64; 3]> {
    let mut knight_bits = vec![[0u64; 3]; 169];
    for a in Cell::all() {
        for &b in a.knight_jumps() {
            knight_bits[a.index()][b.index() >> 6] |= 1 << (b.index() & 63);
        }
    }
    knight_bits
}

/// The Zobrist keys, drawn in this order from one splitmix64 sequence (the order
/// fixes every key, and so every hash a test or a book may have recorded).
struct Zobrist {
    piece: Vec<[u64; 169]>,
    castling: [u64; 6],
    special: [u64; 169],
    black: u64,
}

impl Zobrist {
    fn new() -> Zobrist {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            // splitmix64: deterministic keys, no dependency on a RNG crate.
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut piece = vec![[0u64; 169]; 32];
        for row in piece.iter_mut() {
            for v in row.iter_mut() {
                *v = next();
            }
        }
        // The empty cell has no key, so a write can xor old and new codes unconditionally.
        piece[0] = [0; 169];
        let mut castling = [0u64; 6];
        for v in castling.iter_mut() {
            *v = next();
        }
        let mut special = [0u64; 169];
        for v in special.iter_mut() {
            *v = next();
        }
        let black = next();
        Zobrist {
            piece,
            castling,
            special,
            black,
        }
    }
}

/// Cells a rook reaches from `from` by one straight orthogonal slide ending on `to`.
fn slide_path(from: Cell, to: Cell) -> Option<Vec<Cell>> {
    for d in Direction::ORTHOGONAL {
        let ray = from.ray(d);
        if let Some(pos) = ray.iter().position(|&c| c == to) {
            return Some(ray[..=pos].to_vec());
        }
    }
    None
}

/// The castling generation rule of spec §5.3, for White; Black mirrors it.
fn build_castlings() -> Vec<CastlingDef> {
    let king = cell("G1");
    let (qr, kr) = (cell("C3"), cell("I3"));
    let mut out = Vec::new();
    let col = |c: Cell| c.column_letter();
    let mirror = |v: &[Cell]| v.iter().map(|c| c.mirrored()).collect::<Vec<_>>();
    let single = |rook: Cell, dest: Cell, path: Vec<Cell>| {
        [
            (rook, dest, path.clone()),
            (rook.mirrored(), dest.mirrored(), mirror(&path)),
        ]
    };
    for &leap in king.knight_jumps() {
        let neighbours: Vec<Cell> = Direction::ORTHOGONAL
            .iter()
            .filter_map(|&d| leap.step(d))
            .collect();
        let reach = |rook: Cell| -> Vec<(Cell, Vec<Cell>)> {
            neighbours
                .iter()
                .filter(|&&n| n != rook)
                .filter_map(|&n| slide_path(rook, n).map(|p| (n, p)))
                .collect()
        };
        let k_targets = reach(kr);
        let q_targets = reach(qr);
        for (n, p) in &k_targets {
            let mut name = format!("KRK-{}{}", col(leap), col(*n));
            if col(leap) == 'H' && col(*n) == 'I' {
                name.push_str(if n.line() == 5 { "O" } else { "OO" });
            }
            out.push(CastlingDef {
                name,
                king_to: [leap, leap.mirrored()],
                rooks: vec![single(kr, *n, p.clone())],
            });
        }
        for (n, p) in &q_targets {
            out.push(CastlingDef {
                name: format!("KRD-{}{}", col(leap), col(*n)),
                king_to: [leap, leap.mirrored()],
                rooks: vec![single(qr, *n, p.clone())],
            });
        }
        for (nk, pk) in &k_targets {
            for (nq, pq) in &q_targets {
                if nk != nq && nk.is_adjacent(*nq) && is_orthogonal_neighbour(*nk, *nq) {
                    out.push(CastlingDef {
                        name: format!("KRR-{}{}{}", col(leap), col(*nk), col(*nq)),
                        king_to: [leap, leap.mirrored()],
                        rooks: vec![single(kr, *nk, pk.clone()), single(qr, *nq, pq.clone())],
                    });
                }
            }
        }
    }
    out
}

fn is_orthogonal_neighbour(a: Cell, b: Cell) -> bool {
    Direction::ORTHOGONAL.iter().any(|&d| a.step(d) == Some(b))
}

pub(crate) static TABLES: LazyLock<Tables> = LazyLock::new(build);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_24_castlings_of_the_spec() {
        let mut names: Vec<&str> = TABLES.castlings.iter().map(|c| c.name.as_str()).collect();
        names.sort();
        let mut expected = vec![
            "KRK-II", "KRK-IK", "KRK-IH", "KRK-HIO", "KRK-HIOO", "KRK-HH", "KRK-HG", "KRK-FG",
            "KRK-FE", "KRK-EF", "KRK-EE", "KRD-DD", "KRD-DE", "KRD-HH", "KRD-HG", "KRD-FG",
            "KRD-FE", "KRD-EF", "KRD-ED", "KRR-HIH", "KRR-HGG", "KRR-FGG", "KRR-FEE", "KRR-EEF",
        ];
        expected.sort();
        assert_eq!(names, expected);
        let hioo = TABLES
            .castlings
            .iter()
            .find(|c| c.name == "KRK-HIOO")
            .unwrap();
        assert_eq!(hioo.rooks[0][0].1, cell("I7"));
        assert_eq!(hioo.rooks[0][1].1, cell("I21"));
        let de = TABLES
            .castlings
            .iter()
            .find(|c| c.name == "KRD-DE")
            .unwrap();
        assert_eq!(de.rooks[0][1].1, cell("E27"));
        assert_eq!(de.king_to[1], cell("D26"));
    }

    #[test]
    fn promotion_cells_are_the_column_ends() {
        let white: Vec<String> = Cell::all()
            .filter(|c| TABLES.promotion[0][c.index()])
            .map(|c| c.to_string())
            .collect();
        assert_eq!(white.len(), 15);
        for n in ["P21", "T22", "A23", "F28", "Z21", "I25"] {
            assert!(white.contains(&n.to_string()));
        }
        assert!(TABLES.promotion[1][cell("F0").index()]);
    }
}
