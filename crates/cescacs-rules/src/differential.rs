//! Differential tests of the notation path: the per-cell resolution (the named piece's
//! moves to the named cell, tested as they are generated), the end-of-game search
//! without a move list and the en-passant/scornful test of the repetition key, each
//! against the full-legal-list version it replaced, on every position reached in the
//! oracle's games, the oracle's test positions, the real and test CTL-PGN records, and
//! pseudo-random games that run into promotions, awaiting pawns and the special
//! captures. Resolution is compared on every legal move's text and on near-miss texts
//! (another separator, captured letter, promotion, piece letter or destination).

use crate::Cell;
use crate::an::AnStyle;
use crate::an::{MoveText, MoveTextKind, PromotionText, Separator};
use crate::piece::{Letters, PieceKind, Side};
use crate::position::{Move, MoveKind, Position, ToCell};
use std::path::Path;

/// The moves of a game record from the initial position, as far as a crude reading of
/// the main line gets (tags, comments, numbers, variations and results skipped; stops
/// at the first token that does not resolve).
fn crude_main_line(text: &str, out: &mut Vec<Position>) {
    let letters = Letters::default();
    let mut pos = Position::initial();
    let mut depth = 0usize;
    let mut body = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with('[') {
            if line.contains("[TLPD") || line.contains("[PDTL") || line.contains("[DPTL") {
                return;
            }
            continue;
        }
        for ch in line.chars() {
            match ch {
                '{' | '(' => depth += 1,
                '}' | ')' => depth = depth.saturating_sub(1),
                _ if depth == 0 => body.push(ch),
                _ => {}
            }
        }
        body.push(' ');
    }
    out.push(pos.clone());
    for tok in body.split([' ', ',', '\t']).filter(|t| !t.is_empty()) {
        let tok = tok.trim_end_matches(':').trim_end_matches(['!', '?']);
        if tok.is_empty() || tok.ends_with('.') || tok.contains("-0") || tok == "*" {
            continue;
        }
        if tok.starts_with(|c: char| c.is_ascii_digit()) {
            // A move number, or a result such as 3-0.
            continue;
        }
        let Ok(t) = MoveText::parse(tok, &letters) else {
            return;
        };
        let Ok(r) = pos.resolve(&t) else { return };
        pos.play_unchecked(r.mv);
        out.push(pos.clone());
    }
}

/// Every position of the sources named in the module comment.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let letters = Letters::default();
    let games = std::fs::read_to_string(test_support::shared("oracle/games.jsonl"))
        .expect("oracle games readable");
    let mut games_read = 0;
    for l in games.lines() {
        let Some(start) = l.find("\"moves\": [").map(|i| i + 10) else {
            continue;
        };
        let end = start + l[start..].find(']').expect("moves list closed");
        let mut pos = Position::initial();
        out.push(pos.clone());
        for tok in l[start..end].split(", ").map(|t| t.trim_matches('"')) {
            let t = MoveText::parse(tok, &letters).expect("oracle move parses");
            let r = pos.resolve(&t).expect("oracle move resolves");
            pos.play_unchecked(r.mv);
            out.push(pos.clone());
        }
        games_read += 1;
    }
    assert!(games_read >= 300, "{games_read} oracle games");
    let oracle_plies = out.len();
    let tests = std::fs::read_to_string(test_support::shared("oracle/positions.jsonl"))
        .expect("oracle positions readable");
    let mut parsed = 0;
    for l in tests.lines() {
        let start = l.find("\"tlpd\":\"").expect("tlpd field") + 8;
        let end = start + l[start..].find('"').expect("tlpd closed");
        if let Ok(p) = crate::tlpd::parse(&l[start..end]) {
            out.push(p);
            parsed += 1;
        }
    }
    assert!(parsed >= 200, "{parsed} oracle positions");
    let mut files =
        test_support::files_with_extension(&test_support::testdata().join("ctl-pgn"), "ctl-pgn");
    files.extend(test_support::files_with_extension(
        &test_support::shared("corpus/cescacs-real"),
        "ctl-pgn",
    ));
    let before = out.len();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        // One crude record per blank-line-separated block that starts with tags.
        for record in text.split("\n\n[") {
            crude_main_line(record, &mut out);
        }
    }
    assert!(
        out.len() - before > 500,
        "{} record plies",
        out.len() - before
    );
    // Pseudo-random games to their end: promotions, awaiting pawns, en passant and
    // scornful captures, mates and stalemates; and from a board of Kings and rooks
    // only, where the King has every castling open (many moves to one cell).
    let open = kings_and_rooks();
    out.push(open.clone());
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for game in 0..90 {
        let mut pos = if game < 60 {
            Position::initial()
        } else {
            open.clone()
        };
        for _ in 0..400 {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Prefer pawn moves half the time, to reach the promotion rows.
            let pawns: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| {
                    pos.piece_at(m.from())
                        .is_some_and(|p| p.kind == PieceKind::Pawn)
                })
                .collect();
            let pool: &[Move] = if seed & (1 << 20) != 0 && !pawns.is_empty() {
                &pawns
            } else {
                &moves
            };
            let m = pool[(seed >> 33) as usize % pool.len()];
            pos.play_unchecked(m);
        }
    }
    assert!(oracle_plies > 25_000, "{oracle_plies} oracle plies");
    out
}

/// The initial position with only the Kings and rooks: every castling open.
fn kings_and_rooks() -> Position {
    let mut open = Position::initial().to_setup();
    for c in Cell::all() {
        if open.board[c.index()]
            .is_some_and(|p| !matches!(p.kind, PieceKind::King | PieceKind::Rook))
        {
            open.board[c.index()] = None;
        }
    }
    Position::from_setup(open).expect("Kings and rooks")
}

/// Cells worth asking about for a piece on `from`: its pseudo-legal destinations, its
/// own cell, and its neighbours and knight jumps (near misses).
fn targets(p: &Position, from: Cell, in_check: bool) -> Vec<Cell> {
    let mut buf = crate::position::FixedMoves::new();
    p.pseudo_from(from, in_check, &mut buf);
    let mut t: Vec<Cell> = buf.as_slice().iter().map(|m| m.to()).collect();
    t.push(from);
    t.extend(crate::Direction::ALL.iter().filter_map(|&d| from.step(d)));
    t.extend(from.knight_jumps().iter().copied());
    t.sort_by_key(|c| c.index());
    t.dedup();
    t
}

fn ordinary(m: Move, p: &Position) -> MoveTextKind {
    let letters = Letters::default();
    let text = p.move_text_without_check(m, &letters, AnStyle::RICH);
    MoveText::parse(&text, &letters)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .kind
}

/// Near misses of an ordinary move's text: one field changed at a time.
fn near_misses(kind: &MoveTextKind) -> Vec<MoveTextKind> {
    let MoveTextKind::Ordinary {
        mover,
        from,
        separator,
        captured,
        to,
        promotion,
    } = kind.clone()
    else {
        return Vec::new();
    };
    let mk = |mover, separator, captured, to, promotion| MoveTextKind::Ordinary {
        mover,
        from,
        separator,
        captured,
        to,
        promotion,
    };
    let mut v = Vec::new();
    for s in [
        Separator::Move,
        Separator::Capture,
        Separator::EnPassant,
        Separator::EnPassantFar,
    ] {
        if s != separator {
            v.push(mk(mover, s, captured, to, promotion));
        }
    }
    for c in [None, Some(PieceKind::Queen), Some(PieceKind::Elephant)] {
        if c != captured {
            v.push(mk(mover, separator, c, to, promotion));
        }
    }
    for pr in [
        None,
        Some(PromotionText::Awaiting),
        Some(PromotionText::Piece(PieceKind::Queen)),
        Some(PromotionText::Piece(PieceKind::Knight)),
    ] {
        if pr != promotion {
            v.push(mk(mover, separator, captured, to, pr));
        }
    }
    for k in [PieceKind::Pawn, PieceKind::King, PieceKind::Bishop] {
        if k != mover {
            v.push(mk(k, separator, captured, to, promotion));
        }
    }
    for t in crate::Direction::ALL
        .iter()
        .filter_map(|&d| to.step(d))
        .take(4)
    {
        v.push(mk(mover, separator, captured, t, promotion));
    }
    v
}

fn check_position(p: &Position, n: usize, checked: &mut [usize; 6]) {
    let in_check = p.is_check();
    // Perft's leaf count, which counts most moves without listing them.
    assert_eq!(
        p.clone().count_legal(&mut Vec::new()),
        p.legal_moves().len() as u64,
        "count_legal in\n{p:?}"
    );
    for flag in [false, true] {
        assert_eq!(
            p.has_legal_move(flag),
            p.has_legal_move_by_list(flag),
            "has_legal_move({flag}) in\n{p:?}"
        );
    }
    let (marker, knight, status, checked_now) = p.evaluate_reached();
    let lazy = p.evaluate_reached_lazy(None);
    assert_eq!(
        (lazy.0, lazy.1, lazy.3),
        (marker, knight, checked_now),
        "\n{p:?}"
    );
    match lazy.2 {
        Some(s) => assert_eq!(s, status, "\n{p:?}"),
        None => assert!(
            !checked_now && status != crate::Status::Checkmate,
            "\n{p:?}"
        ),
    }
    assert_eq!(
        p.special_capture_is_legal(),
        p.special_capture_is_legal_by_list(),
        "special capture in\n{p:?}"
    );
    let full = p.legal_moves();
    let between = |from: Cell, to: Cell| -> Vec<Move> {
        full.iter()
            .copied()
            .filter(|m| m.from() == from && m.to() == to)
            .collect()
    };
    let side: Side = p.side_to_move();
    let mut out = ToCell::new();
    // The shares below keep the test to a few seconds; the positions of a game differ
    // little from one ply to the next.
    // Every piece on a share of the positions; the King wherever it may castle (many
    // moves to one cell).
    let castler = p.castling_rights().side(side);
    let king = (castler.king && (castler.queen_rook || castler.king_rook)).then(|| p.king(side));
    let cells = n.is_multiple_of(5);
    for from in Cell::all()
        .filter(|&c| (cells || Some(c) == king) && p.piece_at(c).is_some_and(|x| x.side == side))
    {
        for to in targets(p, from, in_check) {
            let reference = between(from, to);
            for known in [None, Some(in_check)] {
                p.legal_from_to(from, to, known, &mut out);
                assert_eq!(out.as_slice(), &reference[..], "{from}-{to} in\n{p:?}");
            }
            checked[0] += 1;
            checked[4] += usize::from(reference.len() > 8);
        }
    }
    let reference = |t: &MoveText| {
        let mut buf = Vec::new();
        let out = &mut buf;
        p.resolve_with(t, move |from, to| {
            *out = between(from, to);
            let out: &Vec<Move> = out;
            out.as_slice()
        })
    };
    if n % 2 == 1 {
        return;
    }
    // The checkers found from the cells a move changed, after every legal move.
    let sorted = |c: &crate::position::Checkers| {
        let mut v = c.as_slice().to_vec();
        v.sort_by_key(|(c, adj)| (c.index(), *adj));
        v
    };
    for &m in full.iter() {
        let after = p.after(m);
        let king = after.king(after.side_to_move());
        let all = after.checkers_of(king, side);
        if let Some(local) = after.checkers_after(m) {
            assert_eq!(sorted(&local), sorted(&all), "after {m:?} in\n{p:?}");
            checked[5] += 1;
        }
        let lazy = after.evaluate_reached_lazy(Some(m));
        assert_eq!(
            lazy,
            after.evaluate_reached_lazy(None),
            "after {m:?} in\n{p:?}"
        );
    }
    for &m in full.iter() {
        if matches!(m.kind(), MoveKind::Castling | MoveKind::PromotionInPlace) {
            continue;
        }
        let kind = ordinary(m, p);
        let t = MoveText { kind, check: None };
        let fast = p.resolve_in(&t, None);
        assert_eq!(fast, reference(&t), "{t:?} in\n{p:?}");
        assert_eq!(fast.map(|r| r.mv), Ok(m), "{t:?} in\n{p:?}");
        checked[1] += 1;
        // Near misses on a share of the positions (they are many per move).
        if n.is_multiple_of(12) {
            for kind in near_misses(&t.kind) {
                let t = MoveText { kind, check: None };
                let fast = p.resolve_in(&t, Some(in_check));
                assert_eq!(fast, reference(&t), "{t:?} in\n{p:?}");
                checked[2 + usize::from(fast.is_ok())] += 1;
            }
        }
    }
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn per_cell_paths_agree_with_the_full_legal_list_on_real_positions() {
    let positions = positions();
    let mut checked = [0usize; 6];
    for (n, p) in positions.iter().enumerate() {
        check_position(p, n, &mut checked);
    }
    let [cells, exact, missed, tolerated, spilled, local] = checked;
    eprintln!(
        "{} positions: {cells} cell pairs, {exact} move texts, {missed} near misses refused, \
         {tolerated} near misses accepted, {spilled} spilled, {local} local checker sets",
        positions.len()
    );
    assert!(positions.len() > 40_000, "{} positions", positions.len());
    assert!(local > 1_000_000, "{local} local checker sets");
    assert!(cells > 1_000_000 && exact > 1_000_000 && missed > 1_000_000 && tolerated > 1_000);
    // The special captures and the end states occur among them.
    let specials = positions
        .iter()
        .filter(|p| p.special_capture_is_legal())
        .count();
    let ended = positions
        .iter()
        .filter(|p| !p.has_legal_move(p.is_check()))
        .count();
    assert!(
        specials > 100 && ended > 20,
        "{specials} special, {ended} ended"
    );
    assert!(
        spilled > 0,
        "{spilled} cell pairs with more moves than ToCell keeps inline"
    );
}

/// A King with every castling open has more moves to one cell than `ToCell` keeps
/// inline (a step and the castlings ending there): the spilled list is exact too.
#[test]
fn castlings_to_one_cell_spill_and_agree() {
    let p = kings_and_rooks();
    let king = p.king(p.side_to_move());
    let full = p.legal_moves();
    let mut out = ToCell::new();
    let mut most = 0;
    for to in Cell::all() {
        p.legal_from_to(king, to, None, &mut out);
        let reference: Vec<Move> = full
            .iter()
            .copied()
            .filter(|m| m.from() == king && m.to() == to)
            .collect();
        assert_eq!(out.as_slice(), &reference[..], "{king}-{to}");
        most = most.max(reference.len());
    }
    assert!(most > 8, "at most {most} moves to one cell");
}

/// The crude reader of the test above reads the real records to their end.
#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn crude_reader_reads_a_real_record() {
    let f = test_support::shared("corpus/cescacs-real/2020-07-20.ctl-pgn");
    let text = std::fs::read_to_string(Path::new(&f)).expect("readable");
    let mut out = Vec::new();
    crude_main_line(&text, &mut out);
    assert!(out.len() > 60, "{} positions", out.len());
}
