//! Throughput of pgn-reader (+ shakmaty for replay) on one PGN file.
//!
//! Usage: pgn-reader-bench <file.pgn> parse|replay
//! Output format is shared with `chess-pgn`'s `throughput` example and
//! `python-chess-bench/bench.py`, so `run-chess-bench.sh` can parse all three.

use std::{env, fs::File, io, ops::ControlFlow, process, time::Instant};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

/// Parse-only: tokenises and parses SAN (pgn-reader always does), touches nothing else.
struct Count {
    games: u64,
}

impl Visitor for Count {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _movetext: ()) -> Self::Output {
        self.games += 1;
    }
}

/// Replay: the mainline's SAN resolved and played on shakmaty, from the FEN tag when
/// present; a game stops at its first illegal move, as in chess-pgn's replay mode.
struct Replay {
    games: u64,
    illegal: u64,
}

impl Visitor for Replay {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }
    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(p) => *tags = Some(p),
                None => {
                    self.illegal += 1;
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }
    fn san(&mut self, pos: &mut Chess, san_plus: SanPlus) -> ControlFlow<()> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => {
                self.illegal += 1;
                ControlFlow::Break(())
            }
        }
    }
    fn end_game(&mut self, _pos: Chess) -> Self::Output {
        self.games += 1;
    }
}

fn main() -> io::Result<()> {
    let args: Vec<String> = env::args().collect();
    if args.len() != 3 || !matches!(args[2].as_str(), "parse" | "replay") {
        eprintln!("usage: pgn-reader-bench <file.pgn> parse|replay");
        process::exit(2);
    }
    let path = &args[1];
    let bytes = std::fs::metadata(path)?.len();
    let start = Instant::now();
    let mut reader = Reader::new(File::open(path)?);
    let (games, illegal) = if args[2] == "parse" {
        let mut v = Count { games: 0 };
        reader.visit_all_games(&mut v)?;
        (v.games, 0)
    } else {
        let mut v = Replay { games: 0, illegal: 0 };
        reader.visit_all_games(&mut v)?;
        (v.games, v.illegal)
    };
    let secs = start.elapsed().as_secs_f64();
    let mib = bytes as f64 / (1024.0 * 1024.0);
    println!(
        "tool=pgn-reader mode={} bytes={} games={} seconds={:.3} mib_s={:.2} games_s={:.0} errors={}",
        args[2], bytes, games, secs, mib / secs, games as f64 / secs, illegal
    );
    Ok(())
}
