//! perft(4) from the start, legal move generation over the oracle positions, and
//! the cost of make/unmake. Run with `cargo bench -p cescacs-rules`.

use cescacs_rules::{
    CastlingRights, Cell, Letters, Position, Setup, Side, SideCastling, SpecialRight, perft,
};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A minimal TLPD placement/side/castling reader, enough for benchmark inputs (the
/// real reader lives in cescacs-tlpd, which depends on this crate). The en-passant
/// field is ignored: it does not change the cost of generation measurably.
fn load(tlpd: &str) -> Option<Position> {
    let mut fields = tlpd.split(' ');
    let placement = fields.next()?;
    let side = if fields.next()? == "b" {
        Side::Black
    } else {
        Side::White
    };
    let castling = fields.next()?;
    let letters = Letters::default();
    let mut board = [None; 169];
    for entry in placement.split('/').filter(|e| !e.is_empty()) {
        let (line, cells) = entry.split_once(':')?;
        let line: u8 = line.parse().ok()?;
        let mut cols = (0..15u8).filter_map(|c| Cell::new(c, line));
        for ch in cells.chars() {
            if let Some(d) = ch.to_digit(10) {
                for _ in 0..d {
                    cols.next()?;
                }
            } else {
                board[cols.next()?.index()] = Some(letters.piece_of(ch)?);
            }
        }
    }
    let part = |upper: bool| {
        let s: String = castling
            .chars()
            .filter(|c| c.is_ascii_uppercase() == upper && *c != '-')
            .collect();
        let s = s.to_ascii_uppercase();
        SideCastling {
            king: s.contains('K'),
            queen_rook: s.starts_with('R'),
            king_rook: s.ends_with('R'),
        }
    };
    Position::from_setup(Setup {
        board,
        side_to_move: side,
        castling: CastlingRights {
            white: part(true),
            black: part(false),
        },
        special: SpecialRight::None,
        halfmove_clock: 0,
        fullmove_number: Some(1),
    })
    .ok()
}

fn oracle_positions() -> Vec<Position> {
    // The shared reference data; test_support fails loudly when it is missing.
    let text = std::fs::read_to_string(test_support::shared("oracle/positions.jsonl"))
        .expect("oracle file readable");
    let mut v: Vec<Position> = text
        .lines()
        .filter_map(|l| {
            let start = l.find("\"tlpd\":\"")? + 8;
            let end = start + l[start..].find('"')?;
            load(&l[start..end])
        })
        .collect();
    if v.is_empty() {
        v.push(Position::initial());
    }
    v
}

fn bench(c: &mut Criterion) {
    let start = Position::initial();
    let mut g = c.benchmark_group("cescacs");
    g.sample_size(10);
    g.bench_function("perft4_start", |b| b.iter(|| perft(black_box(&start), 4)));
    let positions = oracle_positions();
    eprintln!("movegen over {} oracle positions", positions.len());
    g.bench_function("legal_moves_oracle_positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| p.legal_moves().len())
                .sum::<usize>()
        })
    });
    let mut pos = start.clone();
    let moves = start.legal_moves();
    g.bench_function("make_unmake_all_start_moves", |b| {
        b.iter(|| {
            for &m in moves.iter() {
                let u = pos.make(black_box(m));
                pos.unmake(u);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
