//! C'escacs: `ctl_pgn::Game` ⇄ PCN (spec C.4; mapping in `docs/pcn-mapping.md`).
//!
//! Board: style `cescacs`, a flat array of the 169 cells in the order of spec C.4's
//! table (line 28 first, columns P→Z inside a line), White upper case (bottom).
//! Moves: `shift` / `remove`; en passant as `remove` on the taken pawn's cell then
//! `shift` to the destination; castling as the king's and rooks' shifts (king first
//! whenever that lands on an empty cell); forced promotion in place as `jump` + `land`
//! on the same cell with the `promotion` option. Everything else of the record travels
//! in `...pgn` (tags, the line items with comments, variations, numbering, check marks,
//! assessments, draw offers, end marks, the result line) and `...tlpd`.

use cescacs_rules::an::MoveText;
use cescacs_rules::{
    CastlingRights, Cell, Letters, Move, MoveKind, Piece, PieceKind, Position, Setup, Side,
    SpecialRight,
};
use ctl_pgn::{
    Assessment, CheckMark, Comment, CommentKind, Game, GameResult, Item, Line, MoveNode, Reference,
    ReferenceKind, Span, Tag, Variation,
};
use pcn::{Action, Status, Verb};
use serde_json::{Map, Value};

use crate::common::{
    self, ConvertError, EDITION, PGN_KEY, Warning, block, json, match_move, unknown_keys,
};

const STYLE: &str = "cescacs";
/// Value of `...board_geometry` (spec C.4).
pub(crate) const GEOMETRY: &str = "cescacs-169";

/// The flat PCN index of each cell, by `Cell::index`: spec C.4 puts line 28 first so
/// that flat order runs from the top side, as C.1 asks; `Cell::index` runs from line 0.
fn flat_table() -> [u8; 169] {
    let mut cells: Vec<Cell> = Cell::all().collect();
    cells.sort_by_key(|c| (std::cmp::Reverse(c.line()), c.column()));
    let mut t = [0u8; 169];
    for (f, c) in cells.iter().enumerate() {
        t[c.index()] = f as u8;
    }
    t
}

fn tables() -> &'static ([u8; 169], [u8; 169]) {
    static T: std::sync::OnceLock<([u8; 169], [u8; 169])> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let to_flat = flat_table();
        let mut to_cell = [0u8; 169];
        for (i, &f) in to_flat.iter().enumerate() {
            to_cell[f as usize] = i as u8;
        }
        (to_flat, to_cell)
    })
}

/// The flat PCN index of a cell (`F28` = 0, `E7` = 136, `F0` = 168).
pub(crate) fn flat(c: Cell) -> usize {
    tables().0[c.index()] as usize
}

/// The cell at a flat PCN index.
pub(crate) fn cell(flat: usize) -> Option<Cell> {
    (flat < 169)
        .then(|| Cell::from_index(tables().1[flat] as usize))
        .flatten()
}

fn letter(k: PieceKind) -> &'static str {
    match k {
        PieceKind::King => "k",
        PieceKind::Queen => "d",
        PieceKind::Wyvern => "v",
        PieceKind::Rook => "r",
        PieceKind::Pegasus => "g",
        PieceKind::Knight => "n",
        PieceKind::Bishop => "j",
        PieceKind::Elephant => "e",
        PieceKind::Pawn => "p",
    }
}

fn kind_of(l: &str) -> Option<PieceKind> {
    PieceKind::ALL
        .into_iter()
        .find(|&k| letter(k).eq_ignore_ascii_case(l))
}

fn pcn_side(s: Side) -> pcn::Side {
    match s {
        Side::White => pcn::Side::Bottom,
        Side::Black => pcn::Side::Top,
    }
}

fn pcn_piece(kind: PieceKind, side: Side) -> pcn::Piece {
    // `Piece::new` formats and re-parses its text; boards are built once per ply, so
    // the 18 pieces are made once.
    static PIECES: std::sync::OnceLock<Vec<pcn::Piece>> = std::sync::OnceLock::new();
    let all = PIECES.get_or_init(|| {
        [Side::White, Side::Black]
            .into_iter()
            .flat_map(|s| {
                PieceKind::ALL.into_iter().map(move |k| {
                    pcn::Piece::new(STYLE, letter(k), pcn_side(s), false)
                        .unwrap_or_else(|_| unreachable!("the letters are valid piece strings"))
                })
            })
            .collect()
    });
    let i = PieceKind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
    all[i + if side == Side::Black { 9 } else { 0 }].clone()
}

/// The placement of a position as a PCN board.
pub fn board_of(p: &Position) -> pcn::Board {
    let mut out = pcn::Board::empty(&[169]).unwrap_or_else(|_| unreachable!("169 is a shape"));
    for c in Cell::all() {
        if let Some(pc) = p.piece_at(c) {
            out.set(flat(c), Some(pcn_piece(pc.kind, pc.side)));
        }
    }
    out
}

/// Actions moving several pieces "at once" (castling): each goes when its
/// destination is free, king first when possible; a cycle is broken by lifting one
/// piece with `jump` and putting it down with `land` once its cell is free.
fn simultaneous(mut occupied: Vec<bool>, moves: &[(usize, usize)]) -> Vec<Action> {
    let mut pending: Vec<(usize, usize)> = moves.iter().copied().filter(|(f, t)| f != t).collect();
    let mut hovering: Option<usize> = None;
    let mut out = Vec::new();
    while !pending.is_empty() || hovering.is_some() {
        if let Some(h) = hovering
            && !occupied[h]
        {
            out.push(Action::new(h, Verb::Land, h));
            occupied[h] = true;
            hovering = None;
            continue;
        }
        if let Some(i) = pending.iter().position(|&(_, t)| !occupied[t]) {
            let (f, t) = pending.remove(i);
            out.push(Action::shift(f, t));
            occupied[f] = false;
            occupied[t] = true;
        } else if hovering.is_none() && !pending.is_empty() {
            let (f, t) = pending.remove(0);
            out.push(Action::new(f, Verb::Jump, t));
            occupied[f] = false;
            hovering = Some(t);
        } else {
            // Unreachable for real castlings (one cycle at most); stop rather than loop.
            break;
        }
    }
    out
}

/// The actions of one legal move played from `p`.
pub(crate) fn encode(p: &Position, m: Move) -> pcn::Move {
    let side = p.side_to_move();
    if m.kind() == MoveKind::Castling {
        encode_castling(side, m)
    } else {
        encode_moving(side, m)
    }
}

/// The actions of a castling of `side`. The order of the king's and rooks' actions
/// depends only on which of their destinations are occupied, and a legal castling's
/// destinations are empty or the origin of one of its own pieces: the origins are the
/// occupancy it needs, so no position (nor the moves before it) is needed.
fn encode_castling(side: Side, m: Move) -> pcn::Move {
    let mut moves = vec![(flat(m.from()), flat(m.to()))];
    moves.extend(
        m.castling_rooks(side)
            .into_iter()
            .map(|(f, t)| (flat(f), flat(t))),
    );
    let mut occupied = vec![false; Cell::all().count()];
    for &(from, _) in &moves {
        occupied[from] = true;
    }
    pcn::Move(simultaneous(occupied, &moves))
}

/// [`encode`] of a move other than castling, which needs of its position only the side
/// to move (the colour of a promoted piece).
fn encode_moving(side: Side, m: Move) -> pcn::Move {
    let (from, to) = (flat(m.from()), flat(m.to()));
    let promote = |a: Action| match m.promotion() {
        Some(k) => a.promote(pcn_piece(k, side)),
        None => a,
    };
    match m.kind() {
        MoveKind::PromotionInPlace => pcn::Move(vec![
            Action::new(from, Verb::Jump, from),
            promote(Action::new(from, Verb::Land, from)),
        ]),
        _ => match m.capture_cell().map(flat) {
            Some(c) if c != to => {
                pcn::Move(vec![Action::remove(from, c), promote(Action::shift(c, to))])
            }
            Some(_) => pcn::Move(vec![promote(Action::remove(from, to))]),
            None => pcn::Move(vec![promote(Action::shift(from, to))]),
        },
    }
}

/// The legal move a record half-move names (as `ctl-pgn`'s replay resolves it).
fn resolve(pos: &Position, m: &MoveNode) -> Result<Move, String> {
    resolve_text(pos, m, &m.token.to_standard())
}

/// [`resolve`] with the move's token already written in standard form.
fn resolve_text(pos: &Position, m: &MoveNode, token: &str) -> Result<Move, String> {
    let with_check;
    let text = match m.check {
        Some(c) => {
            with_check = format!("{token}{}", c.as_str());
            with_check.as_str()
        }
        None => token,
    };
    let t = MoveText::parse(text, &Letters::default()).map_err(|e| format!("{text}: {e}"))?;
    pos.resolve(&t)
        .map(|r| r.mv)
        .map_err(|e| format!("{text}: {e}"))
}

const COMMENT_KINDS: [(CommentKind, &str); 6] = [
    (CommentKind::General, "general"),
    (CommentKind::White, "white"),
    (CommentKind::Black, "black"),
    (CommentKind::Auto, "auto"),
    (CommentKind::AutoWhite, "auto_white"),
    (CommentKind::AutoBlack, "auto_black"),
];
const REFERENCE_KINDS: [(ReferenceKind, &str); 4] = [
    (ReferenceKind::Move, "move"),
    (ReferenceKind::Player, "player"),
    (ReferenceKind::Piece, "piece"),
    (ReferenceKind::Nag, "nag"),
];

/// A comment of the `...pgn` block: `{"kind", "text", "references"?}`.
fn write_comment(c: &Comment, out: &mut Vec<u8>) {
    let kind = COMMENT_KINDS
        .iter()
        .find(|(k, _)| *k == c.kind)
        .map_or("general", |(_, n)| n);
    out.extend_from_slice(b"{\"kind\":");
    json::string(out, kind);
    out.extend_from_slice(b",\"text\":");
    json::string(out, &c.text);
    if !c.references.is_empty() {
        out.extend_from_slice(b",\"references\":");
        for (i, r) in c.references.iter().enumerate() {
            let kind = REFERENCE_KINDS
                .iter()
                .find(|(k, _)| *k == r.kind)
                .map_or("move", |(_, n)| n);
            out.push(if i == 0 { b'[' } else { b',' });
            out.extend_from_slice(b"{\"kind\":");
            json::string(out, kind);
            out.extend_from_slice(b",\"text\":");
            json::string(out, &r.text);
            out.extend_from_slice(b",\"offset\":");
            json::uint(out, r.offset as u64);
            out.push(b'}');
        }
        out.push(b']');
    }
    out.push(b'}');
}

/// A half-move of a line's `items`: `{"ply", "number", "side", "number_unknown"?,
/// "token", "check"?, "assessment"?, "draw_offer"?, "end_mark"?}`.
fn write_node(ply: usize, m: &MoveNode, token: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"ply\":");
    json::uint(out, ply as u64);
    out.extend_from_slice(b",\"number\":");
    json::uint(out, u64::from(m.number));
    out.extend_from_slice(if m.side == ctl_pgn::Side::White {
        b",\"side\":\"w\""
    } else {
        b",\"side\":\"b\""
    });
    if m.number_unknown {
        out.extend_from_slice(b",\"number_unknown\":true");
    }
    out.extend_from_slice(b",\"token\":");
    json::string(out, token);
    if let Some(c) = m.check {
        out.extend_from_slice(b",\"check\":");
        json::string(out, c.as_str());
    }
    write_node_rest(m, out);
}

/// A shift or a capture on the destination: one action, written without building
/// the action list.
fn is_plain(m: Move) -> bool {
    m.promotion().is_none()
        && !matches!(m.kind(), MoveKind::Castling | MoveKind::PromotionInPlace)
        && m.capture_cell().is_none_or(|c| c == m.to())
}

/// A move's actions as `encode` makes them; the plain shift and capture (nearly every
/// move) are written without building the action list. `side` is the side to move:
/// no move needs more of its position.
fn write_move(side: Side, m: Move, out: &mut Vec<u8>) {
    if m.kind() == MoveKind::Castling {
        json::value(out, &encode_castling(side, m));
        return;
    }
    if !is_plain(m) {
        json::value(out, &encode_moving(side, m));
        return;
    }
    let capture = m.capture_cell().map(flat);
    let (from, to) = (flat(m.from()), flat(m.to()));
    out.extend_from_slice(b"[[");
    json::uint(out, from as u64);
    out.extend_from_slice(if capture.is_some() {
        b",\"remove\","
    } else {
        b",\"shift\","
    });
    json::uint(out, to as u64);
    out.extend_from_slice(b"]]");
}

/// A half-move's `items` entry and a move's actions are written as blocks
/// ([`common::block`]; a push per part, with the move token rendered into a `String`
/// then scanned for escapes, cost as much as the reader's replay of the move). The
/// entry's buffer is made once per line and reused: what a ply leaves past its length
/// is never read.
type PlyBuf = [u8; 128];

/// [`write_move`] of a plain move (see [`is_plain`]) preceded by `sep` (`[` or `,`),
/// in one block; `to_flat` is [`flat`]'s table. Returns `false`, writing nothing, for
/// any other move.
#[inline(always)]
fn put_plain_move(out: &mut Vec<u8>, sep: u8, m: Move, to_flat: &[u8; 169]) -> bool {
    if !is_plain(m) {
        return false;
    }
    let from = usize::from(to_flat[m.from().index()]);
    let to = usize::from(to_flat[m.to().index()]);
    block::one_action_move(out, sep, from, m.capture_cell().is_some(), to);
    true
}

/// Each cell's name as `ctl-pgn` holds it, with its text padded to three bytes and its
/// length, by `Cell::index`.
type CellNames = [(ctl_pgn::CellName, [u8; 3], usize); 169];

fn cell_names() -> &'static CellNames {
    static NAMES: std::sync::OnceLock<CellNames> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let blank = ctl_pgn::CellName::new("A0").unwrap_or_else(|| unreachable!("a cell name"));
        let mut t = [(blank, [0u8; 3], 0); 169];
        for c in Cell::all() {
            let text = c.to_string();
            if let Some(name) = ctl_pgn::CellName::new(&text) {
                let mut padded = [b' '; 3];
                padded[..text.len()].copy_from_slice(text.as_bytes());
                t[c.index()] = (name, padded, text.len());
            }
        }
        t
    })
}

/// Writes a cell name (an upper-case ASCII letter and one or two digits, nothing JSON
/// escapes) at `buf[n..]`; `None` for a name of another length. `guess` is the cell
/// the name most likely names (the resolved move's): its text is then copied from
/// `names`, where `CellName::as_str` would validate the name as UTF-8 again.
#[inline(always)]
fn put_cell(
    buf: &mut PlyBuf,
    n: usize,
    c: &ctl_pgn::CellName,
    guess: Cell,
    names: &CellNames,
) -> Option<usize> {
    let (name, text, len) = &names[guess.index()];
    if name == c && *len != 0 {
        buf[n..n + 3].copy_from_slice(text);
        return Some(n + len);
    }
    put_cell_text(buf, n, c)
}

#[inline(never)]
fn put_cell_text(buf: &mut PlyBuf, n: usize, c: &ctl_pgn::CellName) -> Option<usize> {
    match *c.as_str().as_bytes() {
        [a, b] => {
            buf[n] = a;
            buf[n + 1] = b;
            Some(n + 2)
        }
        [a, b, d] => {
            buf[n] = a;
            buf[n + 1] = b;
            buf[n + 2] = d;
            Some(n + 3)
        }
        _ => None,
    }
}

/// A piece's standard letter (what `LetterTable::standard` writes for either side).
#[inline(always)]
fn put_letter(buf: &mut PlyBuf, n: usize, k: PieceKind) -> Option<usize> {
    let c = k.standard_letter();
    // Standard letters are upper-case ASCII; anything else goes the general way.
    if !c.is_ascii_uppercase() {
        return None;
    }
    buf[n] = c as u8;
    Some(n + 1)
}

/// Short constant texts (separators, check marks) padded to four bytes, with their
/// length; 0 for a text that is longer or that JSON escapes (none is, but the general
/// writer then takes it).
struct ShortTexts {
    separators: [([u8; 4], usize); 4],
    checks: [([u8; 4], usize); CheckMark::ALL.len()],
}

fn short_text(s: &str) -> ([u8; 4], usize) {
    let b = s.as_bytes();
    let mut t = [b' '; 4];
    if b.len() > 4 || json::needs_escape(b) {
        return (t, 0);
    }
    t[..b.len()].copy_from_slice(b);
    (t, b.len())
}

fn short_texts() -> &'static ShortTexts {
    use ctl_pgn::Separator;
    static TEXTS: std::sync::OnceLock<ShortTexts> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut t = ShortTexts {
            separators: [([0; 4], 0); 4],
            checks: [([0; 4], 0); CheckMark::ALL.len()],
        };
        for s in [
            Separator::Move,
            Separator::Capture,
            Separator::NearEp,
            Separator::FarEp,
        ] {
            t.separators[s as usize] = short_text(s.as_str());
        }
        for c in CheckMark::ALL {
            t.checks[c as usize] = short_text(c.as_str());
        }
        t
    })
}

/// Writes a short text at `buf[n..]`; `None` for one the table does not hold.
#[inline(always)]
fn put_short(buf: &mut PlyBuf, n: usize, (text, len): ([u8; 4], usize)) -> Option<usize> {
    if len == 0 {
        return None;
    }
    buf[n..n + 4].copy_from_slice(&text);
    Some(n + len)
}

/// [`write_node`] of a half-move whose token is an ordinary move (`mv`, as resolved), preceded by `sep`
/// (`[` or `,`), its token written straight from the model (the bytes
/// `MoveToken::render_into` writes with the standard letters, none of which JSON
/// escapes). Returns `None`, writing nothing, for another token.
#[inline(always)]
fn put_node(
    out: &mut Vec<u8>,
    b: &mut PlyBuf,
    sep: u8,
    (ply, m, mv): (usize, &MoveNode, Move),
    (names, texts): (&CellNames, &ShortTexts),
) -> Option<()> {
    let ctl_pgn::MoveToken::Ordinary {
        mover,
        from,
        sep: separator,
        captured,
        to,
        promotion,
    } = &m.token
    else {
        return None;
    };
    // At most 1 + 7 + 20 + 10 + 10 + 11 + 22 + 10 + 12 (the token) + 1 + 15 + 1 = 120
    // bytes.
    b[0] = sep;
    b[1..8].copy_from_slice(b"{\"ply\":");
    let n = block::uint(b, 8, ply as u64);
    b[n..n + 10].copy_from_slice(b",\"number\":");
    let n = block::uint(b, n + 10, u64::from(m.number));
    b[n..n + 11].copy_from_slice(if m.side == ctl_pgn::Side::White {
        b",\"side\":\"w\""
    } else {
        b",\"side\":\"b\""
    });
    let mut n = n + 11;
    if m.number_unknown {
        b[n..n + 22].copy_from_slice(b",\"number_unknown\":true");
        n += 22;
    }
    b[n..n + 10].copy_from_slice(b",\"token\":\"");
    n += 10;
    if let Some(k) = mover {
        n = put_letter(b, n, *k)?;
    }
    n = put_cell(b, n, from, mv.from(), names)?;
    n = put_short(b, n, texts.separators[*separator as usize])?;
    if let Some(k) = captured {
        n = put_letter(b, n, *k)?;
    }
    n = put_cell(b, n, to, mv.to(), names)?;
    match promotion {
        Some(ctl_pgn::Promotion::To(k)) => {
            b[n] = b'=';
            n = put_letter(b, n + 1, *k)?;
        }
        Some(ctl_pgn::Promotion::Awaiting) => {
            b[n] = b'=';
            b[n + 1] = b'&';
            n += 2;
        }
        None => {}
    }
    b[n] = b'"';
    n += 1;
    if let Some(c) = m.check {
        b[n..n + 10].copy_from_slice(b",\"check\":\"");
        n = put_short(b, n + 10, texts.checks[c as usize])?;
        b[n] = b'"';
        n += 1;
    }
    let rest = m.assessment.is_some() || m.draw_offer || m.end_mark;
    if !rest {
        b[n] = b'}';
        n += 1;
    }
    block::put(out, b, n);
    if rest {
        write_node_rest(m, out);
    }
    Some(())
}

/// The members of a half-move's entry after `"check"`, and its closing brace.
#[inline(never)]
fn write_node_rest(m: &MoveNode, out: &mut Vec<u8>) {
    if let Some(a) = m.assessment {
        out.extend_from_slice(b",\"assessment\":");
        json::string(out, a.as_str());
    }
    if m.draw_offer {
        out.extend_from_slice(b",\"draw_offer\":true");
    }
    if m.end_mark {
        out.extend_from_slice(b",\"end_mark\":true");
    }
    out.push(b'}');
}

fn comment_of(v: &Value) -> Option<Comment> {
    let kind = v.get("kind").and_then(Value::as_str)?;
    let kind = COMMENT_KINDS.iter().find(|(_, n)| *n == kind)?.0;
    let text = v.get("text").and_then(Value::as_str)?.to_owned();
    let mut references = Vec::new();
    for r in v
        .get("references")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let k = r.get("kind").and_then(Value::as_str)?;
        references.push(Reference {
            kind: REFERENCE_KINDS.iter().find(|(_, n)| *n == k)?.0,
            text: r.get("text").and_then(Value::as_str)?.to_owned(),
            offset: usize::try_from(r.get("offset").and_then(Value::as_u64)?).ok()?,
        });
    }
    Some(Comment {
        kind,
        text,
        references,
        span: Span::default(),
    })
}

/// A line replayed from `start`: its moves appended to `moves` (`[` first, `,` between,
/// no closing bracket), its `items` to `items` (the same), as JSON. The first
/// `known.len()` moves of the line are taken as already resolved (by the reader's
/// replay), the rest resolved here.
fn write_line(
    start: &Position,
    line: &Line,
    known: &[Move],
    moves: &mut Vec<u8>,
    items: &mut Vec<u8>,
) -> Result<(), ConvertError> {
    let mut pos = start.clone();
    // `pos` is the position after the line's first `played` moves. Moves the reader's
    // replay resolved (`known`) are played only when a later move needs the position
    // (a move to resolve, a castling, a variation's start): most of a game is not
    // played a second time.
    let mut played = 0;
    let mut before: Vec<(u32, ctl_pgn::Side, Position)> = Vec::new();
    // The positions before each move are kept only for the variations to start from.
    let keep_before = line.items.iter().any(|it| matches!(it, Item::Variation(_)));
    let mut ply = 0;
    let mut token = String::new();
    let standard = ctl_pgn::LetterTable::standard();
    let to_flat = &tables().0;
    let blocks = (cell_names(), short_texts());
    let mut node_buf: PlyBuf = [0; 128];
    for (i, it) in line.items.iter().enumerate() {
        let sep = if i == 0 { b'[' } else { b',' };
        match it {
            Item::Comment(c) => {
                items.push(sep);
                items.extend_from_slice(b"{\"comment\":");
                write_comment(c, items);
                items.push(b'}');
            }
            Item::Move(m) => {
                let known_mv = known.get(ply).copied();
                // The position is needed to resolve a move, or to keep it for the
                // variations; a known move is otherwise written without it.
                let needs_position = known_mv.is_none() || keep_before;
                if needs_position {
                    // Catch up: the moves skipped so far are all known ones (empty
                    // when nothing was skipped).
                    for &mv in known.get(played..ply).unwrap_or_default() {
                        pos.play_unchecked(mv);
                    }
                    played = ply;
                }
                // The token's standard text (`MoveToken::to_standard`), rendered into a
                // reused buffer only when a move is resolved here or its entry is not
                // written straight from the model.
                let mut rendered = false;
                let mv = match known_mv {
                    Some(mv) => mv,
                    None => {
                        token.clear();
                        m.token
                            .render_into(&standard, ctl_pgn::Side::White, &mut token);
                        rendered = true;
                        resolve_text(&pos, m, &token)
                            .map_err(|reason| ConvertError::Record { ply, reason })?
                    }
                };
                // Every move passes the turn: the side to move follows from the moves
                // not played yet.
                let side = if (ply - played) % 2 == 0 {
                    pos.side_to_move()
                } else {
                    pos.side_to_move().opponent()
                };
                let msep = if ply == 0 { b'[' } else { b',' };
                if !put_plain_move(moves, msep, mv, to_flat) {
                    moves.push(msep);
                    write_move(side, mv, moves);
                }
                if put_node(items, &mut node_buf, sep, (ply, m, mv), blocks).is_none() {
                    if !rendered {
                        token.clear();
                        m.token
                            .render_into(&standard, ctl_pgn::Side::White, &mut token);
                    }
                    items.push(sep);
                    write_node(ply, m, &token, items);
                }
                if keep_before {
                    before.push((m.number, m.side, pos.clone()));
                }
                if needs_position {
                    // Caught up above: `played` was `ply`.
                    pos.play_unchecked(mv);
                    played += 1;
                }
                ply += 1;
            }
            Item::Variation(v) => {
                let vstart = variation_start(&before, v).ok_or_else(|| ConvertError::Record {
                    ply,
                    reason: "variation replaces no move of its line".into(),
                })?;
                let (mut vmoves, mut vitems) = (Vec::new(), Vec::new());
                write_line(&vstart, &v.line, &[], &mut vmoves, &mut vitems)?;
                items.push(sep);
                items.extend_from_slice(b"{\"variation\":{");
                if let Some(l) = v.label {
                    items.extend_from_slice(b"\"label\":");
                    json::uint(items, u64::from(l));
                    items.push(b',');
                }
                items.extend_from_slice(b"\"items\":");
                json::close(items, &vitems);
                items.extend_from_slice(b",\"moves\":");
                json::close(items, &vmoves);
                items.extend_from_slice(b"}}");
            }
        }
    }
    Ok(())
}

/// The initial position (built once: `Position::initial` sets a whole board up).
fn initial() -> Position {
    static INITIAL: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
    INITIAL.get_or_init(Position::initial).clone()
}

/// A variation replaces the latest half-move of the enclosing line with its first
/// move's number and side (as `ctl-pgn` replays it); an empty variation starts where
/// the line is.
fn variation_start(before: &[(u32, ctl_pgn::Side, Position)], v: &Variation) -> Option<Position> {
    let first = v.line.moves().next()?;
    before
        .iter()
        .rev()
        .find(|(n, s, _)| *n == first.number && *s == first.side)
        .map(|(_, _, p)| p.clone())
}

fn result_status(r: GameResult) -> Status {
    match r {
        GameResult::WhiteWins | GameResult::WhiteStalemates => Status::BottomWon,
        GameResult::BlackWins | GameResult::BlackStalemates => Status::TopWon,
        GameResult::Draw => Status::Draw,
        GameResult::Unfinished => Status::InProgress,
    }
}

fn start_of(game: &Game) -> Result<Position, ConvertError> {
    match game.start_tlpd() {
        None => Ok(initial()),
        Some(t) => cescacs_tlpd::parse(t).map_err(|e| ConvertError::Start(format!("{t}: {e}"))),
    }
}

/// Converts a CTL-PGN record to PCN. The record's moves are resolved with
/// `cescacs-rules` (a record that does not replay is an error); every field of the
/// model is carried, so the warning list is empty.
pub fn to_pcn(game: &Game) -> Result<(pcn::Game, Vec<Warning>), ConvertError> {
    to_pcn_resolved(game, &[])
}

/// [`to_pcn`] given the first main-line moves as `ctl_pgn::replay` resolved them
/// ([`ctl_pgn::Replayed::moves`]): those are played without being parsed and
/// resolved again, the rest (and every variation) are resolved here. `main` must be
/// the resolution of the record's own main line from its own start position.
pub fn to_pcn_resolved(
    game: &Game,
    main: &[Move],
) -> Result<(pcn::Game, Vec<Warning>), ConvertError> {
    // The document is the one `write_pcn_resolved` writes, read back: one writer, and
    // what a reader gets of the written bytes is what this returns.
    let mut out = Vec::new();
    let warnings = write_pcn_resolved(game, main, &mut out)?;
    Ok((pcn::from_slice(&out)?, warnings))
}

/// Appends the compact JSON of the document [`to_pcn_resolved`] returns to `out` (the
/// bytes `pcn::to_string` writes of it), written straight from the record and the
/// replay: no PCN model, no `serde_json::Value`. On an error nothing is appended.
pub fn write_pcn_resolved(
    game: &Game,
    main: &[Move],
    out: &mut Vec<u8>,
) -> Result<Vec<Warning>, ConvertError> {
    let start_len = out.len();
    let written = write_document(game, main, out);
    if written.is_err() {
        out.truncate(start_len);
    }
    written.map(|()| Vec::new())
}

/// The starting position as PCN JSON (the initial position's, made once).
fn write_board(start: &Position, initial: bool, out: &mut Vec<u8>) {
    static INITIAL: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    if initial {
        let b = INITIAL.get_or_init(|| {
            let mut v = Vec::new();
            json::value(&mut v, &board_of(&Position::initial()));
            v
        });
        out.extend_from_slice(b);
    } else {
        json::value(out, &board_of(start));
    }
}

/// The document's keys in the order `pcn::to_string` writes them: the seed's, then
/// `...board_geometry`, `...tlpd`, `...first_to_move`, `...pcn_edition`, `...pgn`.
fn write_document(game: &Game, main: &[Move], out: &mut Vec<u8>) -> Result<(), ConvertError> {
    let start = start_of(game)?;
    let status = game
        .result
        .or_else(|| game.tag("Result").and_then(GameResult::parse))
        .map_or(Status::InProgress, result_status);
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()))
        .collect();
    out.push(b'{');
    if let Some(s) = common::started_at(&tags) {
        out.extend_from_slice(b"\"started_at\":");
        json::string(out, &s);
        out.push(b',');
    }
    for (key, name) in [("topside_player", "Black"), ("bottomside_player", "White")] {
        if let Some(v) = game.tag(name) {
            json::string(out, key);
            out.push(b':');
            json::string(out, v);
            out.push(b',');
        }
    }
    json::status(out, status);
    out.extend_from_slice(b"\"starting_position\":");
    write_board(&start, game.start_tlpd().is_none(), out);
    out.extend_from_slice(b",\"previous_moves\":");
    // The main line's items go to a buffer the thread keeps: a fresh one per game (some
    // kilobytes) made the allocator take fresh pages, which the kernel zeroes.
    thread_local! {
        static ITEMS: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    ITEMS.with(|cell| {
        let mut kept = cell.try_borrow_mut().ok();
        let mut own = Vec::new();
        let items = kept.as_deref_mut().unwrap_or(&mut own);
        items.clear();
        let written = write_tail(game, main, &start, items, out);
        if items.capacity() > 1 << 20 {
            *items = Vec::new();
        }
        written
    })
}

/// [`write_document`] from `"previous_moves"`'s value on; `items` is an empty buffer.
fn write_tail(
    game: &Game,
    main: &[Move],
    start: &Position,
    items: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<(), ConvertError> {
    let moves_at = out.len();
    write_line(start, &game.main, main, out, items)?;
    if out.len() == moves_at {
        out.push(b'[');
    }
    out.push(b']');
    out.extend_from_slice(b",\"...board_geometry\":");
    json::string(out, GEOMETRY);
    if let Some(t) = game.start_tlpd() {
        out.extend_from_slice(b",\"...tlpd\":");
        json::string(out, t);
    }
    if start.side_to_move() == Side::Black {
        out.extend_from_slice(b",\"...first_to_move\":\"top\"");
    }
    out.extend_from_slice(b",\"...pcn_edition\":");
    json::string(out, common::PCN_EDITION);
    out.extend_from_slice(b",\"...pgn\":{\"edition\":");
    json::string(out, EDITION);
    out.extend_from_slice(b",\"tags\":");
    for (i, t) in game.tags.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"[[" } else { b",[" });
        json::string(out, &t.name);
        out.push(b',');
        json::string(out, &t.value);
        out.push(b']');
    }
    out.extend_from_slice(if game.tags.is_empty() { b"[]" } else { b"]" });
    out.extend_from_slice(b",\"items\":");
    json::close(out, items);
    if !game.final_comments.is_empty() {
        out.extend_from_slice(b",\"termination_comment\":");
        for (i, c) in game.final_comments.iter().enumerate() {
            out.push(if i == 0 { b'[' } else { b',' });
            write_comment(c, out);
        }
        out.push(b']');
    }
    out.extend_from_slice(b",\"result_token\":");
    match game.result {
        Some(r) => json::string(out, r.as_str()),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"source_notation\":\"CTL-AN\"}}");
    Ok(())
}

const KNOWN: &[&str] = &[
    "...pgn",
    "...tlpd",
    "...first_to_move",
    "...board_geometry",
    "...pcn_edition",
];

fn check_board(b: &pcn::Board) -> Result<(), ConvertError> {
    common::check_board(
        b,
        &[169],
        STYLE,
        |a| kind_of(a).is_some(),
        "cell",
        "a C'escacs piece",
    )
}

fn start_from_board(b: &pcn::Board, top_first: bool) -> Result<Position, ConvertError> {
    let mut board = [None; 169];
    for (f, p) in b.pieces() {
        let (Some(c), Some(k)) = (cell(f), kind_of(p.abbreviation())) else {
            continue;
        };
        let side = match p.side() {
            pcn::Side::Bottom => Side::White,
            pcn::Side::Top => Side::Black,
        };
        board[c.index()] = Some(Piece::new(side, k));
    }
    // Rights the board allows (from_setup keeps a flag only where king and rook still
    // stand on their initial cells); the seed board cannot say more.
    Position::from_setup(Setup {
        board,
        side_to_move: if top_first { Side::Black } else { Side::White },
        castling: CastlingRights::ALL,
        special: SpecialRight::None,
        halfmove_clock: 0,
        fullmove_number: Some(1),
    })
    .map_err(|e| ConvertError::Start(e.to_string()))
}

/// A record half-move for a legal move: the carried one when it names this move,
/// else one written by the rules crate (read back through `ctl-pgn`'s own parser,
/// since the model has no constructor from a rules move).
fn node_for(
    pos: &Position,
    mv: Move,
    carried: Option<&Map<String, Value>>,
    warnings: &mut Vec<Warning>,
) -> Result<MoveNode, ConvertError> {
    let side = match pos.side_to_move() {
        Side::White => ctl_pgn::Side::White,
        Side::Black => ctl_pgn::Side::Black,
    };
    let number = pos.fullmove_number().unwrap_or(1);
    let carried = match carried {
        Some(c) => {
            unknown_keys(
                c,
                &[
                    "ply",
                    "number",
                    "side",
                    "number_unknown",
                    "token",
                    "check",
                    "assessment",
                    "draw_offer",
                    "end_mark",
                ],
                &format!("{PGN_KEY} item"),
                warnings,
            );
            let node = carried_node(c);
            if node.is_none() {
                warnings.push(Warning::IgnoredAnnotation(format!(
                    "malformed move item {}; the move is written from the PCN move alone",
                    Value::Object(c.clone())
                )));
            }
            node
        }
        None => None,
    };
    if let Some(node) = carried {
        if resolve(pos, &node).ok() == Some(mv) {
            return Ok(node);
        }
        warnings.push(Warning::IgnoredAnnotation(format!(
            "token {} does not name the PCN move; regenerated",
            node.token.to_standard()
        )));
    }
    let an = pos.move_to_an(mv, &Letters::default());
    let mut node = parse_half(&an, number, side).ok_or_else(|| ConvertError::Move {
        path: "previous_moves".into(),
        reason: format!("ctl-pgn cannot read the rules crate's move text {an:?}"),
    })?;
    node.number = number;
    node.side = side;
    Ok(node)
}

/// Reads one half-move through a one-move record.
fn parse_half(text: &str, number: u32, side: ctl_pgn::Side) -> Option<MoveNode> {
    let src = match side {
        ctl_pgn::Side::White => format!("{number}. {text}\n"),
        ctl_pgn::Side::Black => format!("{number}. …, {text}\n"),
    };
    let g = ctl_pgn::read_game(&src).ok()?;
    g.main_moves().next().cloned()
}

fn carried_node(c: &Map<String, Value>) -> Option<MoveNode> {
    let number = u32::try_from(c.get("number")?.as_u64()?).ok()?;
    let side = match c.get("side")?.as_str()? {
        "w" => ctl_pgn::Side::White,
        "b" => ctl_pgn::Side::Black,
        _ => return None,
    };
    let token = c.get("token")?.as_str()?;
    // The check mark and the assessment are read by `ctl-pgn` itself, written after the
    // token as its writer puts them; a value it does not read back exactly is refused.
    let check = c.get("check").and_then(Value::as_str);
    let assessment = c.get("assessment").and_then(Value::as_str);
    let mut text = format!("{token}{}", check.unwrap_or_default());
    if let Some(a) = assessment {
        text.push(' ');
        text.push_str(a);
    }
    let mut node = parse_half(&text, number, side)?;
    if node.check.map(CheckMark::as_str) != check
        || node.assessment.map(Assessment::as_str) != assessment
    {
        return None;
    }
    node.number = number;
    node.side = side;
    node.number_unknown = c.get("number_unknown").and_then(Value::as_bool) == Some(true);
    node.draw_offer = c.get("draw_offer").and_then(Value::as_bool) == Some(true);
    node.end_mark = c.get("end_mark").and_then(Value::as_bool) == Some(true);
    Some(node)
}

/// Rebuilds a line: the carried items in order, each `{"ply": n}` filled with the
/// PCN move `n`; plies without an item are appended after the last one.
fn line_from(
    warnings: &mut Vec<Warning>,
    start: &Position,
    moves: &[pcn::Move],
    items: &[Value],
    path: &str,
) -> Result<Line, ConvertError> {
    let mut pos = start.clone();
    let mut before: Vec<(u32, ctl_pgn::Side, Position)> = Vec::new();
    let mut line = Line::default();
    let mut next = 0;
    let play = |pos: &mut Position,
                before: &mut Vec<(u32, ctl_pgn::Side, Position)>,
                carried: Option<&Map<String, Value>>,
                i: usize,
                warnings: &mut Vec<Warning>|
     -> Result<MoveNode, ConvertError> {
        let board = board_of(pos);
        let m = match_move(
            &board,
            &moves[i],
            &pos.legal_moves(),
            |m| flat(m.from()),
            |m| encode(pos, m),
        )
        .map_err(|reason| ConvertError::Move {
            path: format!("{path}[{i}]"),
            reason,
        })?;
        let node = node_for(pos, m, carried, warnings)?;
        before.push((node.number, node.side, pos.clone()));
        pos.play_unchecked(m);
        Ok(node)
    };
    for it in items {
        if let Some(c) = it.get("comment") {
            match comment_of(c) {
                Some(c) => line.items.push(Item::Comment(c)),
                None => warnings.push(Warning::IgnoredAnnotation(format!("malformed comment {c}"))),
            }
        } else if let Some(v) = it.get("variation").and_then(Value::as_object) {
            let raw = v
                .get("moves")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let vitems = v
                .get("items")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let first = vitems.iter().find_map(|x| {
                Some((
                    u32::try_from(x.get("number")?.as_u64()?).ok()?,
                    x.get("side")?.as_str()?,
                ))
            });
            let vstart = first.and_then(|(n, s)| {
                let s = if s == "w" {
                    ctl_pgn::Side::White
                } else {
                    ctl_pgn::Side::Black
                };
                before
                    .iter()
                    .rev()
                    .find(|(bn, bs, _)| *bn == n && *bs == s)
                    .map(|(_, _, p)| p.clone())
            });
            let Some(vstart) = vstart else {
                warnings.push(Warning::IgnoredAnnotation(format!(
                    "variation after {path}[{}] replaces no move; dropped",
                    next.max(1) - 1
                )));
                continue;
            };
            let vm = common::parse_moves(&board_of(&vstart), &raw).map_err(|reason| {
                ConvertError::Extension {
                    key: format!("{PGN_KEY} variation in {path}"),
                    reason,
                }
            })?;
            unknown_keys(
                v,
                &["label", "items", "moves"],
                &format!("{PGN_KEY} variation in {path}"),
                warnings,
            );
            common::option_extensions(
                &vm,
                &format!("{PGN_KEY} variation in {path}: moves"),
                warnings,
            );
            let l = line_from(
                warnings,
                &vstart,
                &vm,
                &vitems,
                &format!("{path} variation"),
            )?;
            line.items.push(Item::Variation(Variation {
                label: v
                    .get("label")
                    .and_then(Value::as_u64)
                    .and_then(|x| u32::try_from(x).ok()),
                line: l,
                span: Span::default(),
            }));
        } else if let Some(p) = it.get("ply").and_then(Value::as_u64) {
            if p as usize != next || next >= moves.len() {
                warnings.push(Warning::IgnoredAnnotation(format!(
                    "item for ply {p} out of order or beyond the moves of {path}"
                )));
                continue;
            }
            let node = play(&mut pos, &mut before, it.as_object(), next, warnings)?;
            line.items.push(Item::Move(node));
            next += 1;
        } else {
            warnings.push(Warning::IgnoredAnnotation(format!("unknown item {it}")));
        }
    }
    while next < moves.len() {
        let node = play(&mut pos, &mut before, None, next, warnings)?;
        line.items.push(Item::Move(node));
        next += 1;
    }
    Ok(line)
}

/// Converts a PCN document to a CTL-PGN record; moves are matched against the legal
/// moves of `cescacs-rules`, and the carried record parts are restored.
pub fn from_pcn(doc: &pcn::Game) -> Result<(Game, Vec<Warning>), ConvertError> {
    let mut warnings = Vec::new();
    check_board(&doc.starting_position)?;
    let block = common::import_block(
        doc,
        KNOWN,
        &[
            "edition",
            "tags",
            "items",
            "termination_comment",
            "result_token",
            "source_notation",
        ],
        &mut warnings,
    )?;
    let mut tags = common::block_tags(&block)?;
    common::refuse_other_game(&block, &tags, ctl_pgn::names_another_game, "C'escacs")?;
    let tlpd = common::start_extension(
        doc,
        "...tlpd",
        |t| cescacs_tlpd::parse(t).map_err(|e| e.to_string()),
        board_of,
    )?;
    let start = match tlpd {
        Some((p, t)) => {
            if !tags
                .iter()
                .any(|(n, _)| matches!(n.as_str(), "TLPD" | "PDTL" | "DPTL"))
            {
                tags.push(("TLPD".into(), t));
            }
            p
        }
        None => {
            let p = start_from_board(&doc.starting_position, common::top_first(doc)?)?;
            if p != Position::initial() {
                tags.push(("TLPD".into(), cescacs_tlpd::write(&p)));
            }
            p
        }
    };
    let items = block
        .get("items")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let main = line_from(
        &mut warnings,
        &start,
        &doc.previous_moves,
        &items,
        "previous_moves",
    )?;
    let from_status = common::status_result(
        doc.status,
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ],
        &mut tags,
        &mut warnings,
    );
    let result = match block.get("result_token") {
        // The record had no result line.
        Some(Value::Null) => None,
        Some(Value::String(t)) => match GameResult::parse(t) {
            Some(r) if result_status(r) == result_status(from_status) => Some(r),
            _ => {
                warnings.push(Warning::IgnoredAnnotation(format!(
                    "result_token {t:?} contradicts the document status"
                )));
                Some(from_status)
            }
        },
        _ => Some(from_status),
    };
    common::set_white_black(&mut tags, doc, &mut warnings);
    let mut final_comments = Vec::new();
    for c in block
        .get("termination_comment")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match comment_of(c) {
            Some(c) => final_comments.push(c),
            None => warnings.push(Warning::IgnoredAnnotation(format!(
                "malformed termination comment {c}"
            ))),
        }
    }
    let view: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let dates = common::started_at_tags(doc, &view, &mut warnings);
    tags.extend(dates);
    let tags = tags
        .into_iter()
        .map(|(name, value)| Tag {
            name,
            value,
            span: Span::default(),
        })
        .collect();
    Ok((
        Game {
            tags,
            main,
            result,
            final_comments,
            span: Span::default(),
        },
        warnings,
    ))
}

/// The final position of a record's main line, by the rules engine (for callers
/// comparing with [`pcn::replay`]).
pub fn final_position(game: &Game) -> Result<Position, ConvertError> {
    let mut pos = start_of(game)?;
    for (i, m) in game.main_moves().enumerate() {
        let mv = resolve(&pos, m).map_err(|reason| ConvertError::Record { ply: i, reason })?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `encode_castling` orders the pieces from their origins alone; the reference
    /// orders them on the whole board. Compared on every castling legal in the oracle
    /// test positions and along random games from the initial position.
    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn castling_needs_no_position() {
        let reference = |p: &Position, m: Move| {
            let mut moves = vec![(flat(m.from()), flat(m.to()))];
            moves.extend(
                m.castling_rooks(p.side_to_move())
                    .into_iter()
                    .map(|(f, t)| (flat(f), flat(t))),
            );
            let occupied = board_of(p).squares().iter().map(Option::is_some).collect();
            pcn::Move(simultaneous(occupied, &moves))
        };
        let mut compared = 0;
        let mut jumps = 0;
        let mut check = |p: &Position| {
            for &m in p.legal_moves().iter() {
                if m.kind() == MoveKind::Castling {
                    let ours = encode(p, m);
                    assert_eq!(ours, reference(p, m), "{m:?} in {p:?}");
                    compared += 1;
                    jumps += usize::from(ours.0.iter().any(|a| a.verb == Verb::Jump));
                }
            }
        };
        let tests = std::fs::read_to_string(test_support::shared("oracle/positions.jsonl"))
            .expect("oracle/positions.jsonl");
        for line in tests.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).expect("a JSON line");
            let tlpd = v["tlpd"].as_str().expect("a tlpd member");
            check(&cescacs_tlpd::parse(tlpd).expect("an oracle position"));
        }
        let mut rng = test_support::Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..400 {
            let mut p = Position::initial();
            for _ in 0..60 {
                check(&p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(*rng.pick(&moves));
            }
        }
        assert!(compared > 1000, "only {compared} castlings compared");
        eprintln!("{compared} castlings compared, {jumps} with a jump");
    }

    /// The block writers (`put_node`, `put_plain_move`) write the bytes of the general
    /// writers (`write_node` with the token rendered by `ctl-pgn`, `write_move`), for
    /// every main-line half-move of the oracle games, the real games and the spec's
    /// examples, each also with every optional member set, numbers of every width, and
    /// a resolved move that does not match the token's cells.
    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn block_writers_write_the_general_writers_bytes() {
        let standard = ctl_pgn::LetterTable::standard();
        let blocks = (cell_names(), short_texts());
        let to_flat = &tables().0;
        // Reused as the writer reuses them: what a call leaves must not show.
        let mut node_buf: PlyBuf = [0; 128];
        let mut compared = 0;
        let mut fallbacks = 0;
        let mut check = |ply: usize, node: &MoveNode, mv: Move, sep: u8| {
            let mut token = String::new();
            node.token
                .render_into(&standard, ctl_pgn::Side::White, &mut token);
            let mut reference = vec![sep];
            write_node(ply, node, &token, &mut reference);
            let mut ours = Vec::new();
            if put_node(&mut ours, &mut node_buf, sep, (ply, node, mv), blocks).is_some() {
                assert_eq!(
                    String::from_utf8_lossy(&ours),
                    String::from_utf8_lossy(&reference)
                );
                compared += 1;
            } else {
                assert!(ours.is_empty());
                fallbacks += 1;
            }
            let mut reference = vec![sep];
            write_move(Side::White, mv, &mut reference);
            let mut ours = Vec::new();
            if put_plain_move(&mut ours, sep, mv, to_flat) {
                assert_eq!(ours, reference);
            } else {
                assert!(ours.is_empty() && !is_plain(mv));
            }
        };
        let dir = test_support::testdata().join("ctl-pgn");
        let mut files = Vec::new();
        for d in [
            test_support::shared("oracle/games"),
            test_support::shared("corpus/cescacs-real"),
            dir.join("spec"),
        ] {
            for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
                files.push(e.expect("a directory entry").path());
            }
        }
        let (marks, assessments) = (CheckMark::ALL, Assessment::ALL);
        let mut games = 0;
        for path in files {
            let Ok(src) = std::fs::read_to_string(&path) else {
                continue;
            };
            for r in ctl_pgn::replay("", &src, ctl_pgn::Options::default()) {
                let Some(game) = &r.game else { continue };
                games += 1;
                let nodes: Vec<&MoveNode> = game.main_moves().collect();
                for (ply, (node, &mv)) in nodes.iter().zip(&r.moves).enumerate() {
                    check(ply, node, mv, if ply == 0 { b'[' } else { b',' });
                    let mut n = (*node).clone();
                    n.number_unknown = true;
                    n.check = Some(marks[ply % marks.len()]);
                    n.assessment = Some(assessments[ply % assessments.len()]);
                    n.draw_offer = true;
                    n.end_mark = true;
                    n.number = [0, 9, 10, 99, 100, 999, 1000, u32::MAX][ply % 8];
                    let big = [1000, 54_321, usize::MAX][ply % 3];
                    check(big, &n, mv, b',');
                    n.assessment = None;
                    n.draw_offer = false;
                    check(ply, &n, mv, b',');
                    n.end_mark = false;
                    check(ply, &n, mv, b',');
                    // A move of other cells: the token's cells are written from its own
                    // names.
                    if let Some(&other) = r.moves.get(ply + 1) {
                        check(ply, node, other, b',');
                    }
                }
            }
        }
        eprintln!("{games} games, {compared} entries compared, {fallbacks} general");
        assert!(
            games > 50 && compared > 10_000 && fallbacks > 0,
            "{games} {compared} {fallbacks}"
        );
    }

    #[test]
    fn flat_order_is_spec_c4() {
        for (name, f) in [
            ("F28", 0),
            ("E21", 31),
            ("E15", 76),
            ("F14", 84),
            ("E13", 91),
            ("E7", 136),
            ("F0", 168),
            ("P13", 88),
            ("X12", 102),
        ] {
            let c: Cell = name.parse().unwrap();
            assert_eq!(flat(c), f, "{name}");
            assert_eq!(cell(f), Some(c));
        }
    }
}
