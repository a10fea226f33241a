//! The `cescacs` command: perft, legal moves, board diagrams, validation and conversion
//! of game records. The per-game work is `cescacs-convert`'s; this crate parses the
//! arguments, shows progress and prints.

mod bulk;
mod games;
mod position;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cescacs",
    version,
    about = "C'escacs, xiangqi and chess game records: rules, notation, validation and conversion",
    after_help = "Exit status: 0 all good, 1 some games bad, 2 the command could not run."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the C'escacs legal-move tree (the last line of output is the count).
    Perft {
        /// Plies to search (1 = the legal moves of the position).
        #[arg(value_name = "DEPTH")]
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
    /// Print every legal C'escacs move, one per line, in CTL-AN with its check marker.
    Moves {
        /// Position as TLPD (default: the initial position).
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
    /// Replay every C'escacs game and print, one line per game, the TLPD after its last
    /// main-line move (with several files, each line starts with `FILE:GAME: `).
    Replay {
        /// CTL-PGN files or directories.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Treat tolerated irregularities (old check markers, a missing result) as errors.
        #[arg(long)]
        strict: bool,
        /// Start every line with `FILE:GAME: `, even for a single file.
        #[arg(long, short = 'H', conflicts_with = "no_filename")]
        with_filename: bool,
        /// Print the TLPD alone, even for several files.
        #[arg(long)]
        no_filename: bool,
    },
    /// Validate game files (syntax, legal moves, check markers, results) and print a summary.
    Check {
        /// Files or directories (`-` for standard input, with --from).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Convert game files to another format (output in input order).
    Convert {
        /// Files or directories (`-` for standard input, with --from).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum)]
        to: OutputFormat,
        /// Output file (`-` or absent: standard output; a `.jsonl` name writes PCN as
        /// JSON Lines).
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        /// PCN output as JSON Lines (one document per line) instead of a JSON array.
        #[arg(long)]
        jsonl: bool,
        /// Move notation of xiangqi PGN and XML output.
        #[arg(long, value_enum, default_value = "chinese")]
        notation: XiangqiNotation,
        /// CTL-PGN output with FAN (Unicode) piece symbols.
        #[arg(long, conflicts_with = "minimal")]
        fan: bool,
        /// CTL-PGN output for a minimal reader: no comments, variations or redefinitions.
        #[arg(long)]
        minimal: bool,
        #[command(flatten)]
        common: Common,
    },
}

/// Options `check` and `convert` share.
#[derive(clap::Args)]
struct Common {
    /// Input format (default: from each file's name and content).
    #[arg(long, value_enum)]
    from: Option<InputFormat>,
    /// Treat every warning (tolerated irregularities, dropped information) as an error.
    #[arg(long)]
    strict: bool,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_name = "N")]
    jobs: usize,
    /// Write a JSON report of the run (counts and every diagnostic) to this file.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Print only the summary, not each diagnostic.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Text encoding of the inputs (default: guessed from each input's first bytes;
    /// UTF-16 is recognised by itself). Named encodings other than UTF-8 are decoded
    /// before the games are cut and read, so tags, comments and moves come out right.
    #[arg(long, value_enum)]
    encoding: Option<EncodingArg>,
}

/// `--encoding`: the text encoding of the inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EncodingArg {
    /// UTF-8.
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    /// Some single-byte encoding, read byte for byte (moves and tags are ASCII).
    #[value(name = "single-byte")]
    SingleByte,
    /// Latin-1 (read as Windows-1252, its superset, as the Encoding Standard does).
    #[value(name = "latin-1", alias = "latin1", alias = "iso-8859-1")]
    Latin1,
    /// Windows-1252.
    #[value(name = "cp1252", alias = "windows-1252")]
    Cp1252,
    /// Windows-1251 (Cyrillic).
    #[value(name = "cp1251", alias = "windows-1251")]
    Cp1251,
    /// GBK / GB18030.
    #[value(name = "gbk", alias = "gb18030")]
    Gbk,
    /// Big5.
    #[value(name = "big5")]
    Big5,
    /// UTF-16, little-endian.
    #[value(name = "utf-16le")]
    Utf16Le,
    /// UTF-16, big-endian.
    #[value(name = "utf-16be")]
    Utf16Be,
}

impl EncodingArg {
    fn splitter(self) -> cescacs_batch::TextEncoding {
        use cescacs_batch::{TextEncoding, encoding_rs as e};
        match self {
            EncodingArg::Utf8 | EncodingArg::SingleByte => TextEncoding::Bytes,
            EncodingArg::Latin1 | EncodingArg::Cp1252 => TextEncoding::Decode(e::WINDOWS_1252),
            EncodingArg::Cp1251 => TextEncoding::Decode(e::WINDOWS_1251),
            EncodingArg::Gbk => TextEncoding::Decode(e::GB18030),
            EncodingArg::Big5 => TextEncoding::Decode(e::BIG5),
            EncodingArg::Utf16Le => TextEncoding::Decode(e::UTF_16LE),
            EncodingArg::Utf16Be => TextEncoding::Decode(e::UTF_16BE),
        }
    }
}

/// A format the toolkit reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum InputFormat {
    /// C'escacs game files (CTL-PGN).
    #[value(name = "ctl-pgn")]
    CtlPgn,
    /// Classic chess PGN.
    Pgn,
    /// Chinese chess PGN (Chinese, WXF or ICCS moves; UTF-8, GBK or Big5).
    #[value(name = "xiangqi-pgn")]
    XiangqiPgn,
    /// PCN JSON documents (one per file, an array, or one per line in `.jsonl`).
    Pcn,
}

/// A format the toolkit writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    /// C'escacs game files (CTL-PGN).
    #[value(name = "ctl-pgn")]
    CtlPgn,
    /// Classic chess PGN (export format).
    Pgn,
    /// Chinese chess PGN.
    #[value(name = "xiangqi-pgn")]
    XiangqiPgn,
    /// Chinese chess in the seed program's XML form.
    #[value(name = "xiangqi-xml")]
    XiangqiXml,
    /// PCN JSON: one array of documents, or JSON Lines with a `.jsonl` output name.
    Pcn,
}

/// Xiangqi move notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum XiangqiNotation {
    /// Chinese vertical-line notation (炮二平五).
    Chinese,
    /// WXF (C2.5).
    Wxf,
    /// ICCS coordinates (h2e2).
    Iccs,
}

/// The library's value of the same name: the value names on the command line are the
/// library's names (`FromStr`), which the test below checks for every value.
fn lib<T: std::str::FromStr>(value: impl ValueEnum) -> T {
    let name = value.to_possible_value().map(|v| v.get_name().to_owned());
    name.and_then(|n| n.parse().ok())
        .expect("command-line value names are the library's names")
}

impl Common {
    fn settings(&self) -> bulk::Settings<'_> {
        bulk::Settings {
            jobs: self.jobs,
            report: self.report.as_deref(),
            quiet: self.quiet,
            encoding: self.encoding.map(EncodingArg::splitter),
        }
    }
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
        Command::Replay {
            files,
            strict,
            with_filename,
            no_filename,
        } => games::replay(&files, strict, with_filename, no_filename),
        Command::Check { inputs, common } => {
            let options = cescacs_convert::Options {
                strict: common.strict,
                ..Default::default()
            };
            games::check(&inputs, common.from.map(lib), options, &common.settings())
        }
        Command::Convert {
            inputs,
            to,
            output,
            jsonl,
            notation,
            fan,
            minimal,
            common,
        } => {
            let options = cescacs_convert::Options {
                xiangqi_notation: lib(notation),
                fan,
                minimal,
                json_lines: jsonl
                    || output.as_ref().is_some_and(|p| {
                        let name = p.to_string_lossy().to_ascii_lowercase();
                        let name = [".gz", ".bz2", ".zst", ".xz"]
                            .iter()
                            .find_map(|ext| name.strip_suffix(ext))
                            .unwrap_or(&name);
                        name.ends_with(".jsonl")
                    }),
                strict: common.strict,
                ..Default::default()
            };
            let (from, to) = (common.from.map(lib), lib(to));
            games::convert(
                &inputs,
                from,
                to,
                output.as_deref(),
                options,
                &common.settings(),
            )
        }
    };
    ExitCode::from(code.clamp(0, 255) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_names_are_the_library_names() {
        InputFormat::value_variants()
            .iter()
            .for_each(|v| _ = lib::<cescacs_convert::Format>(*v));
        OutputFormat::value_variants()
            .iter()
            .for_each(|v| _ = lib::<cescacs_convert::Format>(*v));
        let notations = XiangqiNotation::value_variants().iter();
        notations.for_each(|v| _ = lib::<cescacs_convert::XiangqiNotation>(*v));
    }
}
