//! Properties of the notations over random legal games: in every canonical style,
//! distinct legal moves get distinct texts, and every text reads back as its move.

use xiangqi::Position;
use xiangqi_pgn::{MoveStyle, Notation, render, resolve_any};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn styles() -> Vec<MoveStyle> {
    let mut v = vec![
        MoveStyle::canonical(Notation::Chinese),
        MoveStyle::canonical(Notation::Wxf),
        MoveStyle::canonical(Notation::Iccs),
    ];
    let mut trad = MoveStyle::canonical(Notation::Chinese);
    trad.traditional = true;
    trad.fullwidth_black_digits = true;
    let mut wxf = MoveStyle::canonical(Notation::Wxf);
    wxf.wxf_equals = true;
    wxf.wxf_marker_first = true;
    v.extend([trad, wxf]);
    v
}

fn check_position(pos: &Position, styles: &[MoveStyle]) -> usize {
    let moves = pos.legal_moves();
    for style in styles {
        let texts: Vec<String> = moves.iter().map(|&m| render(pos, m, style)).collect();
        for (i, (&m, t)) in moves.iter().zip(&texts).enumerate() {
            assert!(
                !texts[..i].contains(t),
                "{:?}: {t} written for two moves in {}",
                style.notation,
                pos.to_fen()
            );
            let back = resolve_any(pos, t, false)
                .unwrap_or_else(|e| panic!("{t} ({m}) unreadable in {}: {e}", pos.to_fen()));
            assert_eq!(back.mv, m, "{t} in {}", pos.to_fen());
        }
    }
    moves.len()
}

#[test]
fn every_legal_move_round_trips_in_every_style() {
    let styles = styles();
    // Soldier-heavy starts exercise the tandem rules; the standard start the rest.
    let starts = [
        xiangqi::START_FEN,
        "3k1a3/4a4/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
        "4k4/9/9/9/9/p4p3/p4p3/5p3/9/3K5 b - - 0 1",
        "2P2k3/2P1a4/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    ];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut checked = 0;
    for game in 0..40 {
        let mut pos = Position::from_fen(starts[game % starts.len()]).unwrap();
        for _ply in 0..120 {
            checked += check_position(&pos, &styles);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
    }
    assert!(checked > 30_000, "only {checked} moves checked");
}
