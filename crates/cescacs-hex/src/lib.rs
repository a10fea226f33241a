//! The C'escacs board's geometry: the 169 hex cells, their colours, steps, knight jumps and ray tables.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;
use std::str::FromStr;

/// Column letters in index order, left to right as White sees the board (there is no `J`).
pub const COLUMN_LETTERS: [char; 15] = [
    'P', 'T', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'K', 'L', 'X', 'Z',
];

/// Highest line number (line 0 is F0, line 28 is F28).
pub const MAX_LINE: u8 = 28;

const NONE: u8 = u8::MAX;

/// One of the 169 cells. The only ways to obtain one check validity, so a `Cell` is
/// always on the board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

/// The three hex colours. The colour depends only on the line (`line % 3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HexColour {
    /// White cells (line ≡ 1 mod 3).
    White,
    /// Black cells (line ≡ 0 mod 3).
    Black,
    /// The third colour (line ≡ 2 mod 3), called “Color” by the author's engine.
    Color,
}

impl HexColour {
    /// The three colours in index order.
    pub const ALL: [HexColour; 3] = [HexColour::White, HexColour::Black, HexColour::Color];
    /// Dense index 0..3 (White, Black, Color), handy for per-colour tables.
    pub const fn index(self) -> usize {
        match self {
            HexColour::White => 0,
            HexColour::Black => 1,
            HexColour::Color => 2,
        }
    }
}

/// The 12 directions: 6 orthogonal ("files", rook steps) and 6 diagonal ("lines",
/// bishop steps). Names follow the author's engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Up the column: (Δcolumn, Δline) = (0, +2).
    ColumnUp,
    /// Orthogonal step (+1, +1).
    FileUp,
    /// Orthogonal step (+1, −1).
    FileDown,
    /// Down the column: (0, −2).
    ColumnDown,
    /// Orthogonal step (−1, −1).
    FileInvDown,
    /// Orthogonal step (−1, +1).
    FileInvUp,
    /// Diagonal step along the line, increasing column (+2, 0).
    TransversalLineInc,
    /// Diagonal step (+1, +3).
    LineUp,
    /// Diagonal step (−1, +3).
    LineInvUp,
    /// Diagonal step along the line, decreasing column (−2, 0).
    TransversalLineDec,
    /// Diagonal step (−1, −3).
    LineInvDown,
    /// Diagonal step (+1, −3).
    LineDown,
}

impl Direction {
    /// All twelve directions: the six orthogonal first, then the six diagonal.
    pub const ALL: [Direction; 12] = [
        Direction::ColumnUp,
        Direction::FileUp,
        Direction::FileDown,
        Direction::ColumnDown,
        Direction::FileInvDown,
        Direction::FileInvUp,
        Direction::TransversalLineInc,
        Direction::LineUp,
        Direction::LineInvUp,
        Direction::TransversalLineDec,
        Direction::LineInvDown,
        Direction::LineDown,
    ];
    /// The six orthogonal directions (Rook steps).
    pub const ORTHOGONAL: [Direction; 6] = [
        Direction::ColumnUp,
        Direction::FileUp,
        Direction::FileDown,
        Direction::ColumnDown,
        Direction::FileInvDown,
        Direction::FileInvUp,
    ];
    /// The six diagonal directions (Bishop steps).
    pub const DIAGONAL: [Direction; 6] = [
        Direction::TransversalLineInc,
        Direction::LineUp,
        Direction::LineInvUp,
        Direction::TransversalLineDec,
        Direction::LineInvDown,
        Direction::LineDown,
    ];

    /// `(Δcolumn, Δline)` of one step.
    pub const fn delta(self) -> (i8, i8) {
        DELTAS[self as usize]
    }
    /// Dense index 0..12, the position in [`Direction::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
    /// Whether this is one of the six orthogonal directions.
    pub const fn is_orthogonal(self) -> bool {
        (self as usize) < 6
    }
    /// The direction pointing the other way.
    pub const fn opposite(self) -> Direction {
        Direction::ALL[OPPOSITE[self as usize]]
    }
}

// Orthogonal first, then diagonal; index i and i+3 (mod 6 within a group) are opposite.
const DELTAS: [(i8, i8); 12] = [
    (0, 2),
    (1, 1),
    (1, -1),
    (0, -2),
    (-1, -1),
    (-1, 1),
    (2, 0),
    (1, 3),
    (-1, 3),
    (-2, 0),
    (-1, -3),
    (1, -3),
];
const OPPOSITE: [usize; 12] = [3, 4, 5, 0, 1, 2, 9, 10, 11, 6, 7, 8];

/// The 12 knight-jump offsets, in the order of the spec's list.
pub const KNIGHT_DELTAS: [(i8, i8); 12] = [
    (3, 1),
    (3, -1),
    (-3, 1),
    (-3, -1),
    (2, 4),
    (2, -4),
    (-2, 4),
    (-2, -4),
    (1, 5),
    (1, -5),
    (-1, 5),
    (-1, -5),
];

const fn valid(c: i32, l: i32) -> bool {
    if c < 0 || c > 14 || l < 0 || l > 28 {
        return false;
    }
    let k = c - 7;
    let a = if k < 0 { -k } else { k };
    a <= l && l <= 28 - a && ((l - k) & 1) == 0
}

struct Tables {
    index: [[u8; 29]; 15],
    coord: [(u8, u8); 169],
    step: [[u8; 12]; 169],
    ray: [[[Cell; 14]; 12]; 169],
    ray_len: [[u8; 12]; 169],
    jump: [[Cell; 12]; 169],
    jump_len: [u8; 169],
    ride: [[(Cell, Cell); 12]; 169],
    ride_len: [u8; 169],
}

const fn build() -> Tables {
    let mut t = Tables {
        index: [[NONE; 29]; 15],
        coord: [(0, 0); 169],
        step: [[NONE; 12]; 169],
        ray: [[[Cell(0); 14]; 12]; 169],
        ray_len: [[0; 12]; 169],
        jump: [[Cell(0); 12]; 169],
        jump_len: [0; 169],
        ride: [[(Cell(0), Cell(0)); 12]; 169],
        ride_len: [0; 169],
    };
    // Index order: line ascending, then column ascending.
    let mut n = 0;
    let mut l = 0;
    while l < 29 {
        let mut c = 0;
        while c < 15 {
            if valid(c, l) {
                t.index[c as usize][l as usize] = n as u8;
                t.coord[n] = (c as u8, l as u8);
                n += 1;
            }
            c += 1;
        }
        l += 1;
    }
    let mut i = 0;
    while i < 169 {
        let (c, l) = t.coord[i];
        let (c, l) = (c as i32, l as i32);
        let mut d = 0;
        while d < 12 {
            let (dc, dl) = DELTAS[d];
            if valid(c + dc as i32, l + dl as i32) {
                t.step[i][d] = t.index[(c + dc as i32) as usize][(l + dl as i32) as usize];
            }
            let mut k = 1;
            let mut len = 0;
            while valid(c + k * dc as i32, l + k * dl as i32) {
                t.ray[i][d][len] =
                    Cell(t.index[(c + k * dc as i32) as usize][(l + k * dl as i32) as usize]);
                len += 1;
                k += 1;
            }
            t.ray_len[i][d] = len as u8;
            d += 1;
        }
        let mut j = 0;
        while j < 12 {
            let (dc, dl) = KNIGHT_DELTAS[j];
            let (c1, l1) = (c + dc as i32, l + dl as i32);
            if valid(c1, l1) {
                let mid = Cell(t.index[c1 as usize][l1 as usize]);
                t.jump[i][t.jump_len[i] as usize] = mid;
                t.jump_len[i] += 1;
                let (c2, l2) = (c1 + dc as i32, l1 + dl as i32);
                if valid(c2, l2) {
                    t.ride[i][t.ride_len[i] as usize] =
                        (mid, Cell(t.index[c2 as usize][l2 as usize]));
                    t.ride_len[i] += 1;
                }
            }
            j += 1;
        }
        i += 1;
    }
    t
}

static TABLES: Tables = build();

impl Cell {
    /// Number of cells on the board.
    pub const COUNT: usize = 169;

    /// The cell at column index `column` (0..15, P..Z) and line `line` (0..=28), if it exists.
    pub fn new(column: u8, line: u8) -> Option<Cell> {
        if column > 14 || line > MAX_LINE {
            return None;
        }
        let i = TABLES.index[column as usize][line as usize];
        (i != NONE).then_some(Cell(i))
    }
    /// Column index 0..15 (P T A B C D E F G H I K L X Z).
    pub fn column(self) -> u8 {
        TABLES.coord[self.0 as usize].0
    }
    /// Line number 0..=28.
    pub fn line(self) -> u8 {
        TABLES.coord[self.0 as usize].1
    }
    /// Column letter as written in CTL coordinates.
    pub fn column_letter(self) -> char {
        COLUMN_LETTERS[self.column() as usize]
    }
    /// Dense index 0..169, ordered by line, then column.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The cell with dense index `i` (see [`Cell::index`]), if `i < 169`.
    pub const fn from_index(i: usize) -> Option<Cell> {
        if i < Self::COUNT {
            Some(Cell(i as u8))
        } else {
            None
        }
    }
    /// The cell's colour, from its line.
    pub fn colour(self) -> HexColour {
        match self.line() % 3 {
            0 => HexColour::Black,
            1 => HexColour::White,
            _ => HexColour::Color,
        }
    }
    /// All 169 cells in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..Self::COUNT as u8).map(Cell)
    }
    /// The neighbour one step away in `dir`, if it is on the board.
    #[inline]
    pub fn step(self, dir: Direction) -> Option<Cell> {
        let s = TABLES.step[self.0 as usize][dir as usize];
        (s != NONE).then_some(Cell(s))
    }
    /// The cell at `(Δcolumn, Δline)` from this one, if any.
    pub fn offset(self, dc: i8, dl: i8) -> Option<Cell> {
        let c = self.column() as i16 + dc as i16;
        let l = self.line() as i16 + dl as i16;
        if !(0..15).contains(&c) || !(0..29).contains(&l) {
            return None;
        }
        Cell::new(c as u8, l as u8)
    }
    /// Every cell from the nearest to the board edge along `dir` (the cell itself excluded).
    #[inline]
    pub fn ray(self, dir: Direction) -> &'static [Cell] {
        let i = self.0 as usize;
        &TABLES.ray[i][dir as usize][..TABLES.ray_len[i][dir as usize] as usize]
    }
    /// The knight-jump targets on the board (at most 12).
    #[inline]
    pub fn knight_jumps(self) -> &'static [Cell] {
        let i = self.0 as usize;
        &TABLES.jump[i][..TABLES.jump_len[i] as usize]
    }
    /// Knight rides as `(intermediate cell, target)`: the same jump done twice.
    #[inline]
    pub fn knight_rides(self) -> &'static [(Cell, Cell)] {
        let i = self.0 as usize;
        &TABLES.ride[i][..TABLES.ride_len[i] as usize]
    }
    /// The same column, line mirrored across the midline (`l -> 28 - l`).
    pub fn mirrored(self) -> Cell {
        let c = self.column();
        let l = self.line();
        Cell(TABLES.index[c as usize][(MAX_LINE - l) as usize])
    }
    /// Whether `other` is one orthogonal or one diagonal step away.
    pub fn is_adjacent(self, other: Cell) -> bool {
        let row = &TABLES.step[self.0 as usize];
        row.contains(&other.0)
    }
    /// Whether `other` is a knight jump away.
    pub fn is_knight_jump(self, other: Cell) -> bool {
        self.knight_jumps().contains(&other)
    }
}

/// The column index (0..15) of a column letter, upper case only.
pub fn column_from_letter(ch: char) -> Option<u8> {
    COLUMN_LETTERS
        .iter()
        .position(|&c| c == ch)
        .map(|i| i as u8)
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.line())
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a string is not a CTL coordinate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CellParseError {
    #[error("empty coordinate")]
    /// Nothing to read.
    Empty,
    #[error("'{0}' is not a column letter (P T A B C D E F G H I K L X Z)")]
    /// Not a column letter.
    BadColumn(char),
    #[error("bad line number '{0}' (expected 0..28 without leading zero)")]
    /// The line number is missing, malformed or out of range.
    BadLine(String),
    #[error("{0} is not one of the 169 cells")]
    /// A valid column and line that name no cell.
    OffBoard(String),
}

impl FromStr for Cell {
    type Err = CellParseError;
    fn from_str(s: &str) -> Result<Cell, CellParseError> {
        let mut chars = s.chars();
        let first = chars.next().ok_or(CellParseError::Empty)?;
        let column = column_from_letter(first).ok_or(CellParseError::BadColumn(first))?;
        let digits = chars.as_str();
        let ok = !digits.is_empty()
            && digits.len() <= 2
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !(digits.len() == 2 && digits.starts_with('0'));
        if !ok {
            return Err(CellParseError::BadLine(digits.to_string()));
        }
        let line: u8 = digits
            .parse()
            .map_err(|_| CellParseError::BadLine(digits.to_string()))?;
        Cell::new(column, line).ok_or_else(|| CellParseError::OffBoard(s.to_string()))
    }
}

/// Reads a coordinate at the start of `s` (column letter plus the longest valid line
/// number), returning the cell and the number of bytes used. Notation parsers need this
/// because a coordinate is not delimited (`F12@@G9`).
pub fn parse_cell_prefix(s: &str) -> Option<(Cell, usize)> {
    let first = s.chars().next()?;
    let column = column_from_letter(first)?;
    let rest = &s.as_bytes()[first.len_utf8()..];
    let n = rest
        .iter()
        .take(2)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if n == 0 {
        return None;
    }
    // Prefer the two-digit reading when it names a cell ("F12" not "F1" + "2").
    for len in (1..=n).rev() {
        let txt = std::str::from_utf8(&rest[..len]).ok()?;
        if len == 2 && txt.starts_with('0') {
            continue;
        }
        if let Ok(line) = txt.parse::<u8>()
            && let Some(c) = Cell::new(column, line)
        {
            return Some((c, first.len_utf8() + len));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Cell {
        s.parse().unwrap()
    }

    #[test]
    fn there_are_169_cells_with_the_spec_column_ranges() {
        assert_eq!(Cell::all().count(), 169);
        let first = [7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7];
        let counts = [8, 9, 10, 11, 12, 13, 14, 15, 14, 13, 12, 11, 10, 9, 8];
        for col in 0..15u8 {
            let lines: Vec<u8> = Cell::all()
                .filter(|c| c.column() == col)
                .map(|c| c.line())
                .collect();
            assert_eq!(lines.len(), counts[col as usize], "column {col}");
            assert_eq!(lines[0], first[col as usize]);
            assert_eq!(*lines.last().unwrap(), 28 - first[col as usize]);
            assert!(lines.windows(2).all(|w| w[1] == w[0] + 2));
        }
        for cell in Cell::all() {
            assert_eq!(Cell::from_index(cell.index()), Some(cell));
            assert_eq!(Cell::new(cell.column(), cell.line()), Some(cell));
            assert_eq!(cell.to_string().parse::<Cell>().unwrap(), cell);
        }
        assert_eq!(Cell::new(7, 1), None);
        assert_eq!(Cell::new(15, 1), None);
        assert_eq!(Cell::from_index(169), None);
    }

    #[test]
    fn colour_counts_are_57_57_55() {
        let count = |h| Cell::all().filter(|c| c.colour() == h).count();
        assert_eq!(count(HexColour::White), 57);
        assert_eq!(count(HexColour::Black), 57);
        assert_eq!(count(HexColour::Color), 55);
        assert_eq!(c("F14").colour(), HexColour::Color);
        assert_eq!(c("G1").colour(), HexColour::White);
        assert_eq!(c("G27").colour(), HexColour::Black);
    }

    #[test]
    fn f14_neighbours_jumps_and_rides() {
        let f14 = c("F14");
        let names = |v: Vec<Cell>| {
            let mut v: Vec<String> = v.iter().map(|c| c.to_string()).collect();
            v.sort();
            v
        };
        let sorted = |s: &str| {
            let mut v: Vec<String> = s.split(' ').map(String::from).collect();
            v.sort();
            v
        };
        let ortho = Direction::ORTHOGONAL
            .iter()
            .filter_map(|&d| f14.step(d))
            .collect();
        assert_eq!(names(ortho), sorted("F12 F16 E13 E15 G13 G15"));
        let diag = Direction::DIAGONAL
            .iter()
            .filter_map(|&d| f14.step(d))
            .collect();
        assert_eq!(names(diag), sorted("D14 H14 E11 E17 G11 G17"));
        assert_eq!(
            names(f14.knight_jumps().to_vec()),
            sorted("C13 C15 D10 E9 D18 E19 G9 H10 G19 H18 I13 I15")
        );
        let mut rides: Vec<String> = f14
            .knight_rides()
            .iter()
            .map(|(m, t)| format!("{t}/{m}"))
            .collect();
        rides.sort();
        assert_eq!(
            rides,
            sorted(
                "T12/C13 T16/C15 B6/D10 D4/E9 B22/D18 D24/E19 H4/G9 K6/H10 H24/G19 K22/H18 X12/I13 X16/I15"
            )
        );
    }

    #[test]
    fn steps_change_colour_as_the_spec_says() {
        for cell in Cell::all() {
            for d in Direction::ALL {
                if let Some(n) = cell.step(d) {
                    assert_eq!(n.colour() == cell.colour(), !d.is_orthogonal());
                    assert_eq!(n.step(d.opposite()), Some(cell));
                }
            }
            for j in cell.knight_jumps() {
                assert_ne!(j.colour(), cell.colour());
            }
            assert_eq!(cell.mirrored().mirrored(), cell);
        }
        assert_eq!(c("F0").ray(Direction::ColumnUp).len(), 14);
    }

    #[test]
    fn coordinate_parsing_rejects_junk() {
        for bad in [
            "", "J4", "F", "F29", "F01", "F3", "f14", "F14x", "P1", "Z22",
        ] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
        assert_eq!(parse_cell_prefix("F12@@G9"), Some((c("F12"), 3)));
        assert_eq!(parse_cell_prefix("G9"), Some((c("G9"), 2)));
        assert_eq!(parse_cell_prefix("E13×F16"), Some((c("E13"), 3)));
        assert_eq!(parse_cell_prefix("F2=&"), Some((c("F2"), 2)));
    }
}
