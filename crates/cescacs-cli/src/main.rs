//! The `cescacs` command: perft, legal moves, board diagrams, validation and conversion of game records.

mod bulk;
mod format;
mod games;
mod losses;
mod position;

use clap::{Parser, Subcommand, ValueEnum};
use format::Format;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cescacs",
    version,
    about = "C'escacs, xiangqi and chess game records: rules, notation, validation and conversion"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal-move tree (the last line of output is the count).
    Perft {
        depth: u32,
        /// Start position as TLPD (default: the initial position).
        #[arg(long)]
        tlpd: Option<String>,
        /// Also print the count under each legal move.
        #[arg(long)]
        divide: bool,
        /// Worker threads sharing the root moves (1 to 256; the counts do not change).
        #[arg(short = 'j', long, default_value_t = 1)]
        jobs: usize,
    },
    /// Print every legal move, one per line, in CTL-AN with its check marker.
    Moves {
        #[arg(long)]
        tlpd: Option<String>,
    },
    /// Show a position as a text diagram, or draw it as SVG.
    Show {
        /// C'escacs position as TLPD (default: the initial position).
        #[arg(long, conflicts_with = "fen")]
        tlpd: Option<String>,
        /// A xiangqi position as FEN.
        #[arg(long)]
        fen: Option<String>,
        /// Write an SVG picture to this file instead of printing a diagram.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Highlight the last move: `FROM-TO` cells (`G3-G1`, or `h2-e2` for xiangqi).
        #[arg(long)]
        last_move: Option<String>,
    },
    /// Replay every C'escacs game; print one line per game: the TLPD after its last main-line move.
    Replay {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Treat tolerated irregularities (old check markers, missing result) as errors.
        #[arg(long)]
        strict: bool,
    },
    /// Validate game files (syntax, legality, markers, results) and print a summary.
    Check {
        /// Files or directories (`-` for standard input).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Input format (default: from each file's extension and content).
        #[arg(long, value_enum)]
        from: Option<Format>,
        #[arg(long)]
        strict: bool,
        /// Worker threads (default: one per core).
        #[arg(long, short = 'j', default_value_t = 0)]
        jobs: usize,
        /// Write a JSON report listing every bad game.
        #[arg(long)]
        report: Option<PathBuf>,
        /// Print only the summary, not each diagnostic.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Convert game files to another format.
    Convert {
        /// Files or directories (`-` for standard input).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long, value_enum)]
        to: Format,
        #[arg(long, value_enum)]
        from: Option<Format>,
        /// Output file (`-` or absent: standard output).
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        /// Move notation for xiangqi PGN output.
        #[arg(long, value_enum, default_value = "chinese")]
        notation: XiangqiNotation,
        /// CTL-PGN output with FAN (Unicode) piece symbols.
        #[arg(long, conflicts_with = "minimal")]
        fan: bool,
        /// CTL-PGN output for a minimal reader: no comments, variations or redefinitions.
        #[arg(long)]
        minimal: bool,
        #[arg(long)]
        strict: bool,
        #[arg(long, short = 'j', default_value_t = 0)]
        jobs: usize,
        #[arg(long)]
        report: Option<PathBuf>,
        #[arg(long, short = 'q')]
        quiet: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum XiangqiNotation {
    Chinese,
    Wxf,
    Iccs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Perft {
            depth,
            tlpd,
            divide,
            jobs,
        } => position::perft(depth, tlpd.as_deref(), divide, jobs),
        Command::Moves { tlpd } => position::moves(tlpd.as_deref()),
        Command::Show {
            tlpd,
            fen,
            svg,
            last_move,
        } => position::show(
            tlpd.as_deref(),
            fen.as_deref(),
            svg.as_deref(),
            last_move.as_deref(),
        ),
        Command::Replay { files, strict } => games::replay(&files, strict),
        Command::Check {
            inputs,
            from,
            strict,
            jobs,
            report,
            quiet,
        } => games::check(&games::CheckArgs {
            inputs: &inputs,
            from,
            strict,
            jobs,
            report: report.as_deref(),
            quiet,
        }),
        Command::Convert {
            inputs,
            to,
            from,
            output,
            notation,
            fan,
            minimal,
            strict,
            jobs,
            report,
            quiet,
        } => games::convert(&games::ConvertArgs {
            inputs: &inputs,
            to,
            from,
            output: output.as_deref(),
            notation,
            fan,
            minimal,
            strict,
            jobs,
            report: report.as_deref(),
            quiet,
        }),
    };
    ExitCode::from(code as u8)
}
