//! The `cescacs` command: perft, legal moves, board diagrams, validation and conversion
//! of game records. The per-game work is `cescacs-convert`'s; this crate parses the
//! arguments, shows progress and prints.

mod criteria;
mod extras;
mod games;
mod position;
mod view;

/// The exit statuses, under the name the position commands use.
mod bulk {
    pub use cescacs_batch::{EXIT_CANNOT_RUN, EXIT_OK};
}

use cescacs_convert::Filter;
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

// Bulk check/convert allocate and free per game on every worker thread: mimalloc's
// thread-local heaps cost 10-20 % less CPU than the system allocator there
// (docs/chess-pgn-benchmarks.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
#[allow(clippy::large_enum_variant)] // parsed once
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
        /// A xiangqi or classic chess position as FEN (told apart by the number of
        /// ranks: 10 for xiangqi, 8 for chess).
        #[arg(long)]
        fen: Option<String>,
        /// Write an SVG picture to this file instead of printing a diagram.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Highlight the last move: `FROM-TO` cells (`G3-G1`; `h2-e2` for xiangqi,
        /// `e2-e4` for chess).
        #[arg(long, alias = "last", conflicts_with = "input")]
        last_move: Option<String>,
        /// A game file of any format: show a position of one of its games (with
        /// --game and --ply) instead of --tlpd or --fen.
        #[arg(conflicts_with_all = ["tlpd", "fen"])]
        input: Option<PathBuf>,
        /// The game of INPUT, counting from 1.
        #[arg(long, value_name = "N", default_value_t = 1, requires = "input")]
        game: usize,
        /// The position after this many main-line half-moves (0: the start; default:
        /// after the last).
        #[arg(long, value_name = "K", requires = "input")]
        ply: Option<usize>,
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
        /// Print the start position and the position after every main-line half-move,
        /// for games of any format (FEN for chess and xiangqi, TLPD for C'escacs), as
        /// `GAME:PLY: POSITION` (docs/viewer.md).
        #[arg(long)]
        each: bool,
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
        /// Move notation: for pgn output san (default), lan (Ng1-f3) or uci (g1f3); for
        /// xiangqi-pgn/xiangqi-xml chinese (default, 炮二平五), wxf (C2.5) or iccs (h2e2).
        #[arg(long, value_name = "NAME", ignore_case = true,
              value_parser = ["san", "lan", "uci", "chinese", "wxf", "iccs"])]
        notation: Option<String>,
        /// Remove from every game before writing it, any of: comments, variations, nags,
        /// clock ([%clk]/[%emt] commands), tags (keep the required ones), e.g.
        /// `--strip comments,nags`.
        #[arg(long, value_name = "LIST")]
        strip: Option<cescacs_convert::Strip>,
        /// CTL-PGN output with FAN (Unicode) piece symbols.
        #[arg(long, conflicts_with = "minimal")]
        fan: bool,
        /// CTL-PGN output for a minimal reader: no comments, variations or redefinitions.
        #[arg(long)]
        minimal: bool,
        #[command(flatten)]
        extras: extras::ConvertExtras,
        #[command(flatten)]
        common: Common,
    },
    /// Select games by tags, moves or errors (every filter given must hold) and write
    /// them as they were, or converted with --to, in input order (docs/select.md).
    Select(games::SelectArgs),
    /// Write a self-contained HTML viewer of games of any format: the board, the moves,
    /// comments and variations, stepping with the arrow keys (docs/viewer.md).
    View(view::ViewArgs),
}

/// The filters of `select`, mapped onto `cescacs_convert::Filter`.
#[derive(clap::Args)]
struct Filters {
    /// The Result tag (`1-0`, `0-1`, `1/2-1/2` or `1/2`, `*`).
    #[arg(long, value_name = "R")]
    result: Option<String>,
    /// Some player's Elo tag is at least N.
    #[arg(long, value_name = "N")]
    min_elo: Option<u32>,
    /// Some player's Elo tag is at most N.
    #[arg(long, value_name = "N")]
    max_elo: Option<u32>,
    /// The Date tag can be on or after this day (YYYY, YYYY.MM or YYYY.MM.DD).
    #[arg(long, value_name = "DATE", value_parser = |d: &str| Filter::date(d, false))]
    date_from: Option<u32>,
    /// The Date tag can be on or before this day.
    #[arg(long, value_name = "DATE", value_parser = |d: &str| Filter::date(d, true))]
    date_to: Option<u32>,
    /// At least N half-moves in the main line.
    #[arg(long, value_name = "N")]
    min_plies: Option<usize>,
    /// At most N half-moves in the main line.
    #[arg(long, value_name = "N")]
    max_plies: Option<usize>,
    /// The main line passes through this position (FEN, xiangqi FEN or TLPD).
    #[arg(long, value_name = "P")]
    position: Option<cescacs_convert::Target>,
    /// The main line ends in checkmate.
    #[arg(long)]
    mate: bool,
    /// The main line ends in stalemate.
    #[arg(long)]
    stalemate: bool,
    /// Only games with errors, as they were (to repair them).
    #[arg(long)]
    invalid: bool,
}

impl Filters {
    fn filter(self) -> Filter {
        let f = self;
        Filter {
            result: f.result,
            min_elo: f.min_elo,
            max_elo: f.max_elo,
            date_from: f.date_from,
            date_to: f.date_to,
            min_plies: f.min_plies,
            max_plies: f.max_plies,
            position: f.position,
            mate: f.mate,
            stalemate: f.stalemate,
            invalid: f.invalid,
            ..Filter::default()
        }
    }
}

/// Options `check`, `convert` and `select` share.
#[derive(clap::Args, Default)]
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
    /// Write the output file even when an input is damaged or unreadable (a corrupt
    /// compressed stream: the games read before the damage are kept, unchecked).
    /// The exit status is still 2.
    #[arg(long)]
    keep_damaged: bool,
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
    /// DOS code page 437 (US; old DOS databases).
    #[value(name = "cp437", alias = "ibm437")]
    Cp437,
    /// DOS code page 850 (Western Europe).
    #[value(name = "cp850", alias = "ibm850")]
    Cp850,
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
            EncodingArg::Cp437 => TextEncoding::CodePage(&cescacs_batch::CP437),
            EncodingArg::Cp850 => TextEncoding::CodePage(&cescacs_batch::CP850),
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

/// The library's value of the same name: the value names on the command line are the
/// library's names (`FromStr`), which the test below checks for every value.
fn lib<T: std::str::FromStr>(value: impl ValueEnum) -> T {
    let name = value.to_possible_value().map(|v| v.get_name().to_owned());
    name.and_then(|n| n.parse().ok())
        .expect("command-line value names are the library's names")
}

impl Common {
    fn encoding(&self) -> Option<cescacs_batch::TextEncoding> {
        self.encoding.map(EncodingArg::splitter)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(extras::eco_without_range(std::env::args_os()));
    let code = match cli.command {
        Command::Perft {
            depth,
            tlpd,
            divide,
            jobs,
        } => {
            position::stdout_open().map(|()| position::perft(depth, tlpd.as_deref(), divide, jobs))
        }
        Command::Moves { tlpd } => Ok(position::moves(tlpd.as_deref())),
        Command::Show {
            input: Some(input),
            game,
            ply,
            svg,
            ..
        } => Ok(view::show(
            &input,
            game,
            ply,
            svg.as_deref(),
            &Common::default(),
        )),
        Command::Show {
            tlpd,
            fen,
            svg,
            last_move,
            ..
        } => Ok(position::show(
            tlpd.as_deref(),
            fen.as_deref(),
            svg.as_deref(),
            last_move.as_deref(),
        )),
        Command::Replay {
            files,
            strict,
            with_filename,
            no_filename,
            each: true,
        } => {
            let common = Common {
                strict,
                ..Common::default()
            };
            view::replay_each(&files, &common, with_filename, no_filename)
        }
        Command::Replay {
            files,
            strict,
            with_filename,
            no_filename,
            ..
        } => games::replay(&files, strict, with_filename, no_filename),
        Command::Check { inputs, common } => {
            games::convert(&inputs, None, None, Default::default(), &common)
        }
        Command::Convert {
            inputs,
            to,
            output,
            jsonl,
            notation,
            strip,
            fan,
            minimal,
            extras,
            common,
        } => {
            let mut options = cescacs_convert::Options {
                strip: strip.unwrap_or_default(),
                fan,
                minimal,
                json_lines: jsonl || json_lines(output.as_deref()),
                strict: common.strict,
                annotate: extras.annotate(),
                layout: extras.layout.layout(),
                ..Default::default()
            };
            let to = lib(to);
            match notation.map(|n| options.set_notation(to, &n)) {
                Some(Err(e)) => {
                    eprintln!("error: --notation: {e}");
                    Err(bulk::EXIT_CANNOT_RUN)
                }
                _ => games::convert(&inputs, Some(to), output.as_deref(), options, &common),
            }
        }
        Command::Select(args) => games::select(args),
        Command::View(args) => view::view(args),
    };
    exit(code.unwrap_or_else(|c| c))
}

fn exit(code: i32) -> ExitCode {
    ExitCode::from(code.clamp(0, 255) as u8)
}

/// Whether an output file name asks for JSON Lines (`.jsonl`, compressed or not).
fn json_lines(output: Option<&std::path::Path>) -> bool {
    output.is_some_and(|p| {
        let name = p.to_string_lossy().to_ascii_lowercase();
        cescacs_convert::without_compression(&name).ends_with(".jsonl")
    })
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
        for n in ["san", "lan", "uci"] {
            _ = n.parse::<cescacs_convert::ChessNotation>().unwrap();
        }
        for n in ["chinese", "wxf", "iccs"] {
            _ = n.parse::<cescacs_convert::XiangqiNotation>().unwrap();
        }
    }
}
