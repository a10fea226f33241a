//! Commands on one position: `perft`, `moves`, `show`.

use crate::bulk::{EXIT_CANNOT_RUN, EXIT_OK};
use cescacs_hex::Cell;
use cescacs_rules::{Letters, Position};
use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

/// Writes the command's standard output through `emit`. A closed pipe (`| head`)
/// ends the command quietly with success, as for other filters; any other write
/// error (a full disk) is reported with exit status 2. Never a panic.
fn with_stdout(emit: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> i32 {
    if let Err(code) = stdout_open() {
        return code;
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match emit(&mut out).and_then(|()| out.flush()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            // The buffered rest cannot be written either: drop it without retrying.
            let (_, _) = out.into_parts();
            eprintln!("error: cannot write to standard output: {e}");
            EXIT_CANNOT_RUN
        }
    }
}

/// Refuses to print results to a closed standard output (`>&-`), where they would
/// vanish with exit status 0 ([`cescacs_batch::stdout_closed`]).
pub fn stdout_open() -> Result<(), i32> {
    match cescacs_batch::stdout_closed() {
        true => {
            eprintln!("error: standard output is closed: nowhere to write the results");
            Err(EXIT_CANNOT_RUN)
        }
        false => Ok(()),
    }
}

fn load(tlpd: Option<&str>) -> Result<Position, i32> {
    match tlpd {
        None => Ok(Position::initial()),
        Some(text) => cescacs_tlpd::parse(text).map_err(|e| {
            eprintln!("error: invalid TLPD: {e}");
            EXIT_CANNOT_RUN
        }),
    }
}

/// `perft DEPTH [--divide] [--jobs N]`: the limits of
/// [`cescacs_rules::MAX_PERFT_DEPTH`] and [`cescacs_rules::MAX_PERFT_JOBS`] give exit
/// status 2 with a message.
pub fn perft(depth: u32, tlpd: Option<&str>, divide: bool, jobs: usize) -> i32 {
    let position = match load(tlpd) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let started = Instant::now();
    let result = if divide {
        cescacs_rules::try_divide(&position, depth, jobs).map(|counts| {
            let letters = Letters::default();
            let mut lines: Vec<(String, u64)> = counts
                .into_iter()
                .map(|(m, n)| (position.move_to_an(m, &letters), n))
                .collect();
            lines.sort();
            let total = if depth == 0 {
                1
            } else {
                lines.iter().map(|l| l.1).sum()
            };
            (total, lines)
        })
    } else {
        cescacs_rules::try_perft(&position, depth, jobs).map(|n| (n, Vec::new()))
    };
    let (nodes, lines) = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_CANNOT_RUN;
        }
    };
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{nodes} nodes in {secs:.3} s ({:.0} nodes/s)",
        nodes as f64 / secs.max(1e-9)
    );
    with_stdout(|out| {
        for (text, n) in &lines {
            writeln!(out, "{text}: {n}")?;
        }
        writeln!(out, "{nodes}")
    })
}

/// `moves`: every legal move in CTL-AN, in code-point order.
pub fn moves(tlpd: Option<&str>) -> i32 {
    let position = match load(tlpd) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let letters = Letters::default();
    let mut texts: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|&m| position.move_to_an(m, &letters))
        .collect();
    // The oracle's order: plain code-point order of the move strings.
    texts.sort();
    with_stdout(|out| {
        for t in texts {
            writeln!(out, "{t}")?;
        }
        Ok(())
    })
}

pub fn show(
    tlpd: Option<&str>,
    fen: Option<&str>,
    svg: Option<&Path>,
    last_move: Option<&str>,
) -> i32 {
    if let Some(fen) = fen {
        // Told apart by the placement's ranks: 8 for chess, 10 for xiangqi (whose
        // reader gives the error for anything else).
        let ranks = fen
            .split_whitespace()
            .next()
            .unwrap_or("")
            .split('/')
            .count();
        if ranks == 8 {
            return show_chess(fen, svg, last_move);
        }
        return show_xiangqi(fen, svg, last_move);
    }
    let position = match load(tlpd) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let Some(path) = svg else {
        return with_stdout(|out| {
            write!(out, "{}", cescacs_rules::diagram(&position))?;
            writeln!(out, "{}", cescacs_tlpd::write(&position))
        });
    };
    let last = match last_move.map(parse_cell_pair).transpose() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: --last-move: {e}");
            return EXIT_CANNOT_RUN;
        }
    };
    // The library's picture: check and mate marked, the TLPD as caption and
    // data-position.
    write_svg(path, &cescacs_convert::cescacs_svg(&position, last))
}

fn parse_cell_pair(text: &str) -> Result<(Cell, Cell), String> {
    let (a, b) = text
        .split_once('-')
        .ok_or_else(|| format!("expected FROM-TO, found {text:?}"))?;
    let cell = |s: &str| s.trim().parse::<Cell>().map_err(|e| format!("{s:?}: {e}"));
    Ok((cell(a)?, cell(b)?))
}

fn write_svg(path: &Path, svg: &str) -> i32 {
    match std::fs::write(path, svg) {
        Ok(()) => {
            eprintln!("wrote {}", path.display());
            EXIT_OK
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            EXIT_CANNOT_RUN
        }
    }
}

fn show_chess(fen: &str, svg: Option<&Path>, last_move: Option<&str>) -> i32 {
    let Some(path) = svg else {
        return match cescacs_convert::chess_diagram(fen) {
            Ok(d) => with_stdout(|out| write!(out, "{d}")),
            Err(e) => {
                eprintln!("error: {e}");
                EXIT_CANNOT_RUN
            }
        };
    };
    match cescacs_convert::chess_svg(fen, last_move) {
        Ok(picture) => write_svg(path, &picture),
        Err(e @ cescacs_convert::PictureError::BadMove(_)) => {
            eprintln!("error: --last-move: {e}");
            EXIT_CANNOT_RUN
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_CANNOT_RUN
        }
    }
}

fn show_xiangqi(fen: &str, svg: Option<&Path>, last_move: Option<&str>) -> i32 {
    use cescacs_convert::PictureError::BadXiangqiMove;
    let picture = match svg {
        None => cescacs_convert::xiangqi_diagram(fen),
        Some(_) => cescacs_convert::xiangqi_svg(fen, last_move),
    };
    match (picture, svg) {
        (Ok(d), None) => with_stdout(|out| write!(out, "{d}")),
        (Ok(picture), Some(path)) => write_svg(path, &picture),
        (Err(e @ BadXiangqiMove(_)), _) => {
            eprintln!("error: --last-move: {e}");
            EXIT_CANNOT_RUN
        }
        (Err(e), _) => {
            eprintln!("error: {e}");
            EXIT_CANNOT_RUN
        }
    }
}
