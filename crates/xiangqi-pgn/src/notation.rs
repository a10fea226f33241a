//! The move notations: Chinese vertical-line, WXF, ICCS (and its rank-1..10 dialect),
//! WinBoard SAN. Rendering follows spec §5.5; reading is generate-and-match against the
//! legal moves, so every dialect resolves through the move generator.

use xiangqi::{Move, PieceKind, Position, Side, Square};

/// A movetext notation that can be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Chinese vertical-line notation (`炮二平五`), the seed's default.
    Chinese,
    /// WXF (`C2.5`).
    Wxf,
    /// ICCS coordinates (`h2e2`).
    Iccs,
}

impl Notation {
    /// The value of the `Format` tag.
    pub fn tag_value(self) -> &'static str {
        match self {
            Notation::Chinese => "Chinese",
            Notation::Wxf => "WXF",
            Notation::Iccs => "ICCS",
        }
    }

    /// Reads a `Format` tag value or a command-line name (case-insensitive).
    pub fn from_name(s: &str) -> Option<Notation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chinese" | "zh" | "cn" => Some(Notation::Chinese),
            "wxf" => Some(Notation::Wxf),
            "iccs" | "ucci" => Some(Notation::Iccs),
            _ => None,
        }
    }
}

/// How to spell moves when writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveStyle {
    /// The notation written.
    pub notation: Notation,
    /// Chinese: traditional characters (俥傌帥 / 車馬砲將, 進, 後).
    pub traditional: bool,
    /// Chinese: full-width digits for Black (`炮８平５`) instead of ASCII.
    pub fullwidth_black_digits: bool,
    /// WXF: `=` for sideways moves instead of `.`.
    pub wxf_equals: bool,
    /// WXF: tandem marker before the letter (`+C-2`) instead of after (`C+-2`).
    pub wxf_marker_first: bool,
    /// ICCS: original `H2-E2` spelling instead of `h2e2`.
    pub iccs_upper_dash: bool,
    /// Chinese: follow a two-file soldier ordinal whose meaning depends on the disputed
    /// scan order (spec §5.3) with a `{h2e2}` comment holding the ICCS move.
    pub annotate_ambiguous: bool,
}

impl MoveStyle {
    /// The canonical style of a notation (spec §5).
    pub fn canonical(notation: Notation) -> MoveStyle {
        MoveStyle {
            notation,
            traditional: false,
            fullwidth_black_digits: false,
            wxf_equals: false,
            wxf_marker_first: false,
            iccs_upper_dash: false,
            annotate_ambiguous: false,
        }
    }
}

const CN_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Forward,
    Back,
    Sideways,
}

/// What a move looks like to the notations: file numbers, direction, tandem position.
struct Facts {
    side: Side,
    kind: PieceKind,
    /// Mover-relative file number 1..9 of the origin.
    file_no: u8,
    dir: Dir,
    /// Destination file number or distance, per the piece rule.
    target: u8,
    /// Position of the mover among identical pieces on its file, 0 = front.
    idx: usize,
    /// Number of identical pieces on that file.
    count: usize,
    /// Files (mover numbers, ascending) holding two or more of the mover's soldiers.
    multi_files: Vec<u8>,
    /// xqbase ordinal (1-based) over the soldiers of the multi files, scanning files
    /// from the mover's right (ascending number) and `rev` from the left.
    ordinal: Option<u8>,
    ordinal_rev: Option<u8>,
}

fn file_no(x: u8, side: Side) -> u8 {
    match side {
        Side::Red => 9 - x,
        Side::Black => x + 1,
    }
}

fn file_x(no: u8, side: Side) -> u8 {
    match side {
        Side::Red => 9 - no,
        Side::Black => no - 1,
    }
}

/// Identical pieces on file `x`, front first.
fn same_on_file(pos: &Position, x: u8, side: Side, kind: PieceKind) -> Vec<Square> {
    let mut v: Vec<Square> = (0..10)
        .filter_map(|y| Square::new(x, y))
        .filter(|&s| {
            pos.piece_at(s)
                .is_some_and(|p| p.side == side && p.kind == kind)
        })
        .collect();
    if side == Side::Red {
        v.reverse();
    }
    v
}

fn facts(pos: &Position, m: Move) -> Option<Facts> {
    let piece = pos.piece_at(m.from())?;
    let (side, kind) = (piece.side, piece.kind);
    let (from, to) = (m.from(), m.to());
    let dy = to.rank() as i32 - from.rank() as i32;
    let fwd = if side == Side::Red { dy } else { -dy };
    let (dir, target) = if dy == 0 {
        (Dir::Sideways, file_no(to.file(), side))
    } else {
        let dir = if fwd > 0 { Dir::Forward } else { Dir::Back };
        let t = if kind.moves_diagonally() {
            file_no(to.file(), side)
        } else {
            dy.unsigned_abs() as u8
        };
        (dir, t)
    };
    let same = same_on_file(pos, from.file(), side, kind);
    let idx = same.iter().position(|&s| s == from).unwrap_or(0);
    let mut multi_files = Vec::new();
    let (mut ordinal, mut ordinal_rev) = (None, None);
    if kind == PieceKind::Soldier {
        for no in 1..=9u8 {
            if same_on_file(pos, file_x(no, side), side, kind).len() >= 2 {
                multi_files.push(no);
            }
        }
        let own = file_no(from.file(), side);
        if multi_files.len() >= 2 && multi_files.contains(&own) {
            let ord = |files: &mut dyn Iterator<Item = &u8>| {
                let mut n = 0u8;
                for &f in files {
                    for s in same_on_file(pos, file_x(f, side), side, kind) {
                        n += 1;
                        if s == from {
                            return Some(n);
                        }
                    }
                }
                None
            };
            ordinal = ord(&mut multi_files.iter());
            ordinal_rev = ord(&mut multi_files.iter().rev());
        }
    }
    Some(Facts {
        side,
        kind,
        file_no: file_no(from.file(), side),
        dir,
        target,
        idx,
        count: same.len(),
        multi_files,
        ordinal,
        ordinal_rev,
    })
}

fn chinese_piece(kind: PieceKind, side: Side, traditional: bool) -> char {
    match (kind, side, traditional) {
        (PieceKind::General, Side::Red, false) => '帅',
        (PieceKind::General, Side::Red, true) => '帥',
        (PieceKind::General, Side::Black, false) => '将',
        (PieceKind::General, Side::Black, true) => '將',
        (PieceKind::Advisor, Side::Red, _) => '仕',
        (PieceKind::Advisor, Side::Black, _) => '士',
        (PieceKind::Elephant, Side::Red, _) => '相',
        (PieceKind::Elephant, Side::Black, _) => '象',
        (PieceKind::Horse, Side::Red, true) => '傌',
        (PieceKind::Horse, Side::Black, true) => '馬',
        (PieceKind::Horse, _, false) => '马',
        (PieceKind::Chariot, Side::Red, true) => '俥',
        (PieceKind::Chariot, Side::Black, true) => '車',
        (PieceKind::Chariot, _, false) => '车',
        (PieceKind::Cannon, Side::Black, true) => '砲',
        (PieceKind::Cannon, _, _) => '炮',
        (PieceKind::Soldier, Side::Red, _) => '兵',
        (PieceKind::Soldier, Side::Black, _) => '卒',
    }
}

fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

/// Writes `m` (a legal move of `pos`) in `style`.
pub fn render(pos: &Position, m: Move, style: &MoveStyle) -> String {
    let mut s = String::new();
    render_into(pos, m, style, &mut s);
    s
}

/// [`render`] appended to `out`: the writers spell every move into their own text,
/// without a string per move.
pub(crate) fn render_into(pos: &Position, m: Move, style: &MoveStyle, out: &mut String) {
    match style.notation {
        Notation::Iccs => iccs_into(m, style.iccs_upper_dash, out),
        Notation::Chinese => render_chinese(pos, m, style, out),
        Notation::Wxf => render_wxf(pos, m, style, out),
    }
}

/// ICCS coordinates of a move (`h2e2`, or `H2-E2`), digit by digit.
fn iccs_into(m: Move, upper_dash: bool, out: &mut String) {
    let (from, to) = (m.from(), m.to());
    let file = |f: u8| char::from(if upper_dash { b'A' } else { b'a' } + f);
    let rank = |r: u8| char::from(b'0' + r);
    out.push(file(from.file()));
    out.push(rank(from.rank()));
    if upper_dash {
        out.push('-');
    }
    out.push(file(to.file()));
    out.push(rank(to.rank()));
}

fn render_chinese(pos: &Position, m: Move, style: &MoveStyle, s: &mut String) {
    let Some(f) = facts(pos, m) else {
        return iccs_into(m, false, s);
    };
    let num = |n: u8| -> char {
        let n = n.clamp(1, 9);
        match (f.side, style.fullwidth_black_digits) {
            (Side::Red, _) => CN_DIGITS[n as usize - 1],
            (Side::Black, false) => char::from(b'0' + n),
            (Side::Black, true) => char::from_u32(0xFF10 + n as u32).unwrap_or('?'),
        }
    };
    let piece = chinese_piece(f.kind, f.side, style.traditional);
    let (front, rear) = if style.traditional {
        ('前', '後')
    } else {
        ('前', '后')
    };
    let simple = matches!(
        f.kind,
        PieceKind::General | PieceKind::Advisor | PieceKind::Elephant
    ) || f.count < 2;
    if simple {
        s.push(piece);
        s.push(num(f.file_no));
    } else if f.kind != PieceKind::Soldier {
        s.push(if f.idx == 0 { front } else { rear });
        s.push(piece);
    } else if let Some(ord) = f.ordinal {
        s.push(CN_DIGITS[ord as usize - 1]);
        s.push(piece);
    } else {
        match (f.count, f.idx) {
            (2, 0) | (3, 0) => s.push(front),
            (2, _) | (3, 2) => s.push(rear),
            (3, _) => s.push('中'),
            (_, i) => s.push(CN_DIGITS[i.min(8)]),
        }
        s.push(piece);
    }
    s.push(match (f.dir, style.traditional) {
        (Dir::Forward, false) => '进',
        (Dir::Forward, true) => '進',
        (Dir::Back, _) => '退',
        (Dir::Sideways, _) => '平',
    });
    s.push(num(f.target));
}

fn render_wxf(pos: &Position, m: Move, style: &MoveStyle, s: &mut String) {
    let Some(f) = facts(pos, m) else {
        return iccs_into(m, false, s);
    };
    let letter = wxf_letter(f.kind);
    let digit = |n: u8| char::from(b'0' + n.clamp(1, 9));
    let mark = |front: bool| if front { '+' } else { '-' };
    let simple = matches!(
        f.kind,
        PieceKind::General | PieceKind::Advisor | PieceKind::Elephant
    ) || f.count < 2;
    let lettered_marker = |s: &mut String, marker: char| {
        if style.wxf_marker_first {
            s.push(marker);
            s.push(letter);
        } else {
            s.push(letter);
            s.push(marker);
        }
    };
    if simple {
        s.push(letter);
        s.push(digit(f.file_no));
    } else if f.kind != PieceKind::Soldier {
        lettered_marker(s, mark(f.idx == 0));
    } else if f.multi_files.len() >= 2 {
        s.push(digit(f.file_no));
        match (f.count, f.idx) {
            (_, 0) => s.push('+'),
            (3, 1) => s.push(digit(f.file_no)),
            _ => s.push('-'),
        }
    } else {
        match (f.count, f.idx) {
            (2, i) => lettered_marker(s, mark(i == 0)),
            (3, 1) | (5, 2) => {
                s.push(letter);
                s.push(digit(f.file_no));
            }
            (3, i) => lettered_marker(s, mark(i == 0)),
            (c, 0) if c >= 4 => s.push_str("++"),
            (c, i) if i + 1 == c => s.push_str("--"),
            (_, 1) => lettered_marker(s, '+'),
            _ => lettered_marker(s, '-'),
        }
    }
    s.push(match f.dir {
        Dir::Forward => '+',
        Dir::Back => '-',
        Dir::Sideways if style.wxf_equals => '=',
        Dir::Sideways => '.',
    });
    s.push(digit(f.target));
}

// ---------------------------------------------------------------------------
// Reading

/// Why a move token does not denote exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveError {
    /// The token is not in any known move syntax.
    Syntax,
    /// Well-formed, but no legal move matches.
    NoMatch,
    /// More than one legal move matches (listed in ICCS).
    Ambiguous(Vec<String>),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax => write!(f, "not a move in Chinese, WXF, ICCS or SAN notation"),
            MoveError::NoMatch => write!(f, "no legal move matches"),
            MoveError::Ambiguous(c) => write!(f, "ambiguous move, candidates {}", c.join(" ")),
        }
    }
}

/// A resolved move with the reading notes worth a warning.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// A tolerated irregularity of the text: its kind and what it was.
    pub warning: Option<(crate::WarningKind, String)>,
}

/// The syntax family of a move token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Chinese move text (`炮二平五`).
    Chinese,
    /// WXF (`C2.5`).
    Wxf,
    /// Four-character coordinates; the rank dialect is decided per game.
    Coordinates,
    /// Coordinates with a rank `10` or 5 characters: ranks 1..10 for sure.
    CoordinatesRank10,
    /// WinBoard-style SAN (`Che2`, `Rxb0`).
    San,
}

/// Folds full-width ASCII (U+FF01..U+FF5E) to ASCII.
pub fn fold_fullwidth(s: &str) -> String {
    s.chars()
        .map(|c| match c as u32 {
            0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// Classifies a token (already folded) by its syntax, or `None` if it is no move.
pub fn classify(token: &str) -> Option<TokenKind> {
    if token
        .chars()
        .any(|c| matches!(c, '进' | '進' | '退' | '平'))
    {
        return Some(TokenKind::Chinese);
    }
    let b = token.as_bytes();
    if let Some((_, _, ten)) = parse_coords(token) {
        return Some(if ten {
            TokenKind::CoordinatesRank10
        } else {
            TokenKind::Coordinates
        });
    }
    if parse_wxf(token).is_some() {
        return Some(TokenKind::Wxf);
    }
    if !b.is_empty() && parse_san(token).is_some() {
        return Some(TokenKind::San);
    }
    None
}

/// File and rank of one square as written.
type FileRank = (u8, u8);

/// `(from, to, rank10)`, ranks as written; accepts `h2e2`, `H2-E2`, `e10e9`.
fn parse_coords(t: &str) -> Option<(FileRank, FileRank, bool)> {
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    let b: Vec<u8> = t.bytes().filter(|&c| c != b'-').collect();
    let mut i = 0;
    let sq = |i: &mut usize| -> Option<(u8, u8, bool)> {
        let f = b.get(*i)?.to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&f) {
            return None;
        }
        *i += 1;
        let d = *b.get(*i)?;
        if !d.is_ascii_digit() {
            return None;
        }
        *i += 1;
        if d == b'1' && b.get(*i) == Some(&b'0') {
            *i += 1;
            return Some((f - b'a', 10, true));
        }
        Some((f - b'a', d - b'0', false))
    };
    let (fx, fy, t1) = sq(&mut i)?;
    let (tx, ty, t2) = sq(&mut i)?;
    if i != b.len() || t.matches('-').count() > 1 {
        return None;
    }
    Some(((fx, fy), (tx, ty), t1 || t2))
}

/// Resolves coordinates; `rank10` reads ranks 1..10 (Fairy-Stockfish "UCI").
pub fn resolve_coords(pos: &Position, token: &str, rank10: bool) -> Result<Move, MoveError> {
    let t = fold_fullwidth(token);
    let ((fx, fy), (tx, ty), _) = parse_coords(&t).ok_or(MoveError::Syntax)?;
    let shift = |y: u8| if rank10 { y.checked_sub(1) } else { Some(y) };
    let from = shift(fy).and_then(|y| Square::new(fx, y));
    let to = shift(ty).and_then(|y| Square::new(tx, y));
    match (from, to) {
        (Some(f), Some(t)) => pos.find_move(f, t).ok_or(MoveError::NoMatch),
        _ => Err(MoveError::NoMatch),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Locator {
    File(u8),
    Front,
    Rear,
    Middle,
    /// WXF `P+` / `P-`: front/rear with up to 3 soldiers, 2nd / 2nd-from-rear with 4-5.
    WxfPlus,
    WxfMinus,
    /// `++` / `--`: extreme soldier of a file of 4 or 5.
    Foremost,
    Rearmost,
    /// Chinese `一兵`…`五兵`: from the front of one file, or the xqbase two-file count.
    Ordinal(u8),
    /// WXF two-file soldiers `3+`, `3-`, `33`.
    TwoFile(u8, i8),
    /// pyffish `17=8`: ordinal from the front on a given file.
    FileOrdinal(u8, u8),
}

#[derive(Clone, Copy, Debug)]
struct Desc {
    kind: PieceKind,
    loc: Locator,
    dir: Dir,
    target: u8,
}

fn chinese_kind(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::General,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '马' | '馬' | '傌' | '䮕' => PieceKind::Horse,
        '车' | '車' | '俥' | '伡' => PieceKind::Chariot,
        '炮' | '砲' | '包' | '炰' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Soldier,
        _ => return None,
    })
}

fn numeral(c: char) -> Option<u8> {
    if let Some(i) = CN_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

fn parse_chinese(token: &str) -> Option<Desc> {
    let t = fold_fullwidth(token);
    let c: Vec<char> = t
        .trim_end_matches(['+', '#', '!', '?'])
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if c.len() != 4 {
        return None;
    }
    let dir = match c[2] {
        '进' | '進' => Dir::Forward,
        '退' => Dir::Back,
        '平' => Dir::Sideways,
        _ => return None,
    };
    let target = numeral(c[3])?;
    let marker = |m: char| match m {
        '前' => Some(Locator::Front),
        '后' | '後' => Some(Locator::Rear),
        '中' => Some(Locator::Middle),
        _ => None,
    };
    let (kind, loc) = if let Some(k) = chinese_kind(c[0]) {
        let loc = match numeral(c[1]) {
            Some(n) => Locator::File(n),
            None => marker(c[1])?,
        };
        (k, loc)
    } else if let Some(loc) = marker(c[0]) {
        (chinese_kind(c[1])?, loc)
    } else {
        let n = numeral(c[0])?;
        let k = chinese_kind(c[1])?;
        (k, Locator::Ordinal(n))
    };
    Some(Desc {
        kind,
        loc,
        dir,
        target,
    })
}

fn wxf_kind(c: char) -> Option<PieceKind> {
    Some(match c.to_ascii_uppercase() {
        'K' | 'G' => PieceKind::General,
        'A' => PieceKind::Advisor,
        'E' | 'B' => PieceKind::Elephant,
        'H' | 'N' => PieceKind::Horse,
        'R' => PieceKind::Chariot,
        'C' => PieceKind::Cannon,
        'P' | 'S' => PieceKind::Soldier,
        _ => return None,
    })
}

/// Reads a WXF token; the second reading is the pyffish one for `33.4`-like tokens.
fn parse_wxf(token: &str) -> Option<(Desc, Option<Desc>)> {
    let t = fold_fullwidth(token);
    let mut c: Vec<char> = t.trim_end_matches(['#', '!', '?']).chars().collect();
    if c.len() == 3 && c[2].is_ascii_digit() {
        // No operator at all (`C25`): a sideways move.
        c.insert(2, '.');
    }
    if c.len() != 4 {
        return None;
    }
    let dir = match c[2] {
        '+' => Dir::Forward,
        '-' => Dir::Back,
        '.' | '=' => Dir::Sideways,
        _ => return None,
    };
    let target = numeral(c[3]).filter(|_| c[3].is_ascii_digit())?;
    let digit = |ch: char| ch.to_digit(10).filter(|&d| d >= 1).map(|d| d as u8);
    let sign = |ch: char| match ch {
        '+' => Some(1i8),
        '-' => Some(-1i8),
        _ => None,
    };
    let desc = |kind, loc| Desc {
        kind,
        loc,
        dir,
        target,
    };
    let mark_loc = |kind: PieceKind, s: i8| match (kind, s) {
        (PieceKind::Soldier, 1) => Locator::WxfPlus,
        (PieceKind::Soldier, _) => Locator::WxfMinus,
        (_, 1) => Locator::Front,
        _ => Locator::Rear,
    };
    if let Some(k) = wxf_kind(c[0]) {
        if let Some(f) = digit(c[1]) {
            return Some((desc(k, Locator::File(f)), None));
        }
        let s = sign(c[1])?;
        return Some((desc(k, mark_loc(k, s)), None));
    }
    if let Some(s) = sign(c[0]) {
        if let Some(k) = wxf_kind(c[1]) {
            return Some((desc(k, mark_loc(k, s)), None));
        }
        let s2 = sign(c[1])?;
        if s != s2 {
            return None;
        }
        let loc = if s > 0 {
            Locator::Foremost
        } else {
            Locator::Rearmost
        };
        return Some((desc(PieceKind::Soldier, loc), None));
    }
    let f = digit(c[0])?;
    if let Some(s) = sign(c[1]) {
        return Some((desc(PieceKind::Soldier, Locator::TwoFile(f, s)), None));
    }
    let g = digit(c[1])?;
    let ffish = desc(PieceKind::Soldier, Locator::FileOrdinal(f, g));
    if f == g {
        Some((
            desc(PieceKind::Soldier, Locator::TwoFile(f, 0)),
            Some(ffish),
        ))
    } else {
        Some((ffish, None))
    }
}

fn loc_matches(loc: Locator, f: &Facts, reversed: bool) -> bool {
    let (idx, cnt) = (f.idx, f.count);
    match loc {
        Locator::File(n) => f.file_no == n,
        Locator::Front => cnt >= 2 && idx == 0,
        Locator::Rear => cnt >= 2 && idx + 1 == cnt,
        Locator::Middle => cnt >= 3 && idx * 2 + 1 == cnt,
        Locator::WxfPlus => {
            if cnt >= 4 {
                idx == 1
            } else {
                cnt >= 2 && idx == 0
            }
        }
        Locator::WxfMinus => {
            if cnt >= 4 {
                idx + 2 == cnt
            } else {
                cnt >= 2 && idx + 1 == cnt
            }
        }
        Locator::Foremost => cnt >= 2 && idx == 0,
        Locator::Rearmost => cnt >= 2 && idx + 1 == cnt,
        Locator::Ordinal(n) => {
            let two_file = if reversed { f.ordinal_rev } else { f.ordinal };
            match two_file {
                Some(o) => o == n,
                None => cnt >= 2 && idx + 1 == n as usize,
            }
        }
        Locator::TwoFile(n, s) => {
            f.file_no == n
                && cnt >= 2
                && match s {
                    1 => idx == 0,
                    -1 => idx + 1 == cnt,
                    _ => cnt == 3 && idx == 1,
                }
        }
        Locator::FileOrdinal(o, n) => f.file_no == n && idx + 1 == o as usize,
    }
}

fn matching(pos: &Position, d: &Desc, reversed: bool) -> Vec<Move> {
    let mut out = Vec::new();
    for &m in pos.legal_moves().iter() {
        let Some(f) = facts(pos, m) else { continue };
        if f.kind == d.kind
            && f.dir == d.dir
            && f.target == d.target
            && loc_matches(d.loc, &f, reversed)
        {
            out.push(m);
        }
    }
    // A plain file form on a file with several soldiers names the middle one (WXF `P3`).
    if out.len() > 1 && d.kind == PieceKind::Soldier && matches!(d.loc, Locator::File(_)) {
        let mid: Vec<Move> = out
            .iter()
            .copied()
            .filter(|&m| {
                facts(pos, m).is_some_and(|f| f.count % 2 == 1 && f.idx * 2 + 1 == f.count)
            })
            .collect();
        if mid.len() == 1 {
            return mid;
        }
    }
    out
}

fn one(cands: Vec<Move>) -> Result<Move, MoveError> {
    match cands.len() {
        0 => Err(MoveError::NoMatch),
        1 => Ok(cands[0]),
        _ => Err(MoveError::Ambiguous(
            cands.iter().map(|m| m.to_iccs()).collect(),
        )),
    }
}

/// Resolves a Chinese-notation token.
pub fn resolve_chinese(pos: &Position, token: &str) -> Result<Resolved, MoveError> {
    let d = parse_chinese(token).ok_or(MoveError::Syntax)?;
    let ours = one(matching(pos, &d, false));
    if let Locator::Ordinal(_) = d.loc {
        // Two-file soldier ordinals: the scan order of the rule is disputed (spec §5.3).
        let rev = one(matching(pos, &d, true));
        return match (ours, rev) {
            (Ok(a), Ok(b)) if a != b => Ok(Resolved {
                mv: a,
                warning: Some((
                    crate::WarningKind::TandemOrder,
                    format!(
                        "ambiguous-tandem-order: {token} read right-to-left as {a}, left-to-right it would be {b}"
                    ),
                )),
            }),
            (Ok(a), _) => Ok(Resolved {
                mv: a,
                warning: None,
            }),
            (Err(_), Ok(b)) => Ok(Resolved {
                mv: b,
                warning: Some((
                    crate::WarningKind::TandemOrder,
                    format!(
                        "ambiguous-tandem-order: {token} only matches when files are counted left-to-right"
                    ),
                )),
            }),
            (Err(e), Err(_)) => Err(e),
        };
    }
    ours.map(|mv| Resolved { mv, warning: None })
}

/// True when `m`'s Chinese text would name another legal move under the reversed
/// two-file scan order.
pub fn tandem_order_sensitive(pos: &Position, m: Move) -> bool {
    let mut text = String::new();
    render_chinese(pos, m, &MoveStyle::canonical(Notation::Chinese), &mut text);
    resolve_chinese(pos, &text).is_ok_and(|r| r.warning.is_some())
}

/// Resolves a WXF token (canonical, marker-first, full-width and pyffish dialects).
pub fn resolve_wxf(pos: &Position, token: &str) -> Result<Resolved, MoveError> {
    let (d, alt) = parse_wxf(token).ok_or(MoveError::Syntax)?;
    match one(matching(pos, &d, false)) {
        Ok(mv) => Ok(Resolved { mv, warning: None }),
        Err(e) => match alt {
            Some(a) => one(matching(pos, &a, false)).map(|mv| Resolved {
                mv,
                warning: Some((
                    crate::WarningKind::WxfDialect,
                    format!("wxf-dialect-guess: {token} read as pyffish ordinal+file"),
                )),
            }),
            None => Err(e),
        },
    }
}

struct San {
    kind: PieceKind,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: (u8, u8),
}

/// WinBoard xiangqi SAN: `Che2`, `Hxe3`, `Ege7`, `gxg3`, `Cbg7`. Ranks are kept as
/// written: XBoard itself writes 0..9, Fairy-Stockfish 1..10 (decided per game).
fn parse_san(token: &str) -> Option<San> {
    let t = token.trim_end_matches(['+', '#', '!', '?']);
    let b = t.as_bytes();
    let (kind, mut rest) = match b.first()? {
        c if c.is_ascii_uppercase() => (wxf_kind(*c as char)?, &b[1..]),
        _ => (PieceKind::Soldier, b),
    };
    let rank_len = if rest.ends_with(b"10") { 2 } else { 1 };
    if rest.len() < 1 + rank_len {
        return None;
    }
    let rank: u8 = std::str::from_utf8(&rest[rest.len() - rank_len..])
        .ok()?
        .parse()
        .ok()?;
    if rank > 10 {
        return None;
    }
    let file = rest[rest.len() - rank_len - 1];
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    rest = &rest[..rest.len() - rank_len - 1];
    if rest.last() == Some(&b'x') {
        rest = &rest[..rest.len() - 1];
    }
    let (mut from_file, mut from_rank) = (None, None);
    let mut i = 0;
    if let Some(&c) = rest.first()
        && (b'a'..=b'i').contains(&c)
    {
        from_file = Some(c - b'a');
        i = 1;
    }
    if i < rest.len() {
        let r: u8 = std::str::from_utf8(&rest[i..]).ok()?.parse().ok()?;
        if r > 10 {
            return None;
        }
        from_rank = Some(r);
    }
    Some(San {
        kind,
        from_file,
        from_rank,
        to: (file - b'a', rank),
    })
}

/// Rank digits written in a SAN token: used to decide the per-game rank dialect.
pub fn san_ranks(token: &str) -> Vec<u8> {
    parse_san(&fold_fullwidth(token))
        .map(|s| s.from_rank.into_iter().chain([s.to.1]).collect())
        .unwrap_or_default()
}

/// Resolves a WinBoard SAN token; `rank10` reads ranks 1..10 instead of 0..9.
pub fn resolve_san(pos: &Position, token: &str, rank10: bool) -> Result<Move, MoveError> {
    let s = parse_san(token).ok_or(MoveError::Syntax)?;
    let shift = |r: u8| if rank10 { r.checked_sub(1) } else { Some(r) };
    let to = (s.to.0, shift(s.to.1).ok_or(MoveError::NoMatch)?);
    let from_rank = match s.from_rank {
        Some(r) => Some(shift(r).ok_or(MoveError::NoMatch)?),
        None => None,
    };
    let cands = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            let from = m.from();
            pos.piece_at(from).is_some_and(|p| p.kind == s.kind)
                && (m.to().file(), m.to().rank()) == to
                && s.from_file.is_none_or(|f| f == from.file())
                && from_rank.is_none_or(|r| r == from.rank())
        })
        .collect();
    one(cands)
}

/// Resolves a token of any notation; `rank10` is the per-game coordinate dialect.
pub fn resolve_any(pos: &Position, token: &str, rank10: bool) -> Result<Resolved, MoveError> {
    let folded = fold_fullwidth(token);
    let plain = |mv| Resolved { mv, warning: None };
    match classify(&folded).ok_or(MoveError::Syntax)? {
        TokenKind::Chinese => resolve_chinese(pos, &folded),
        TokenKind::Wxf => resolve_wxf(pos, &folded),
        TokenKind::Coordinates => resolve_coords(pos, &folded, rank10).map(plain),
        TokenKind::CoordinatesRank10 => resolve_coords(pos, &folded, true).map(plain),
        TokenKind::San => resolve_san(pos, &folded, rank10).map(plain),
    }
}
