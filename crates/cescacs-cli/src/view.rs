//! `cescacs view`, `replay --each` and `show INPUT --game N --ply K`: every position of
//! games of any format. The positions and the page are `game-viewer`'s; this module
//! opens the inputs, runs the games and writes.

use crate::Common as Settings;
use crate::games::{cannot_run, end, open, run};
use cescacs_batch::{Group, Sink};
use cescacs_convert::{Format, Options};
use game_viewer::Plies;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// `cescacs view`.
#[derive(clap::Args)]
pub struct ViewArgs {
    /// Game files or directories, any format (`-` for standard input, with --from).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The HTML file to write (default: view.html). Above
    /// game_viewer::MAX_GAMES_PER_PAGE games it is an index, with the games in pages
    /// beside it (OUT-p001.html, …).
    #[arg(long, short = 'o', default_value = "view.html")]
    output: PathBuf,
    /// Only this game (its number, counting from 1 across the inputs).
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// Play mode: embed this WebAssembly module (target/wasm-pkg/cescacs_wasm.wasm,
    /// built by `cargo xtask wasm`) so that the page can play moves, branch
    /// variations, undo and export the game (docs/wasm.md). Still one file, no network.
    #[arg(long, value_name = "MODULE.wasm")]
    play: Option<PathBuf>,
    #[command(flatten)]
    common: Settings,
}

/// A writer that the run's sink can own while this module keeps it.
#[derive(Default)]
struct Shared<W>(Arc<Mutex<W>>);

impl<W> Clone for Shared<W> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<W: Write> Write for Shared<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared<Vec<u8>> {
    fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }
}

/// Runs one group per input file, each with the per-game function `make` builds for
/// it (its format and name), into `sink`; returns the exit status.
fn each_file<'a, F>(
    paths: &[PathBuf],
    settings: &Settings,
    out: Option<&Path>,
    sink: Sink,
    make: impl Fn(Format, String) -> F,
    quiet_summary: bool,
) -> Result<i32, i32>
where
    F: Fn(&cescacs_batch::RawGame) -> cescacs_batch::GameOutcome + Sync + 'a,
{
    let (mut session, inputs) = open(paths, settings.from.map(crate::lib), settings, out)?;
    // One group per file, taken as the run reaches it.
    let groups = inputs
        .groups
        .into_iter()
        .flat_map(|(format, files)| files.into_iter().map(move |f| (format, f)))
        .map(|(format, f)| Group::<'a> {
            process: Box::new(make(format, f.name.clone())),
            files: Some(1),
            total_bytes: f.size,
            inputs: Box::new(std::iter::once(f)),
        });
    let mut sink = sink;
    run(&mut session, groups, &mut sink, b"", settings.quiet);
    let finished = session.finish(sink, b"", inputs.had_errors);
    if quiet_summary {
        return Ok(finished.code);
    }
    Ok(end(finished, |f| f.summary_line("valid")))
}

fn options(settings: &Settings) -> Options {
    Options {
        strict: settings.strict,
        ..Options::default()
    }
}

/// `cescacs replay --each`: the start position and the position after every main-line
/// half-move of every game, any format.
pub fn replay_each(
    paths: &[PathBuf],
    settings: &Settings,
    with_name: bool,
    no_name: bool,
) -> Result<i32, i32> {
    let several = paths.len() > 1 || paths.iter().any(|p| p.is_dir());
    let named = with_name || (!no_name && several);
    let options = options(settings);
    let sink = Sink::Stdout(Box::new(std::io::BufWriter::new(std::io::stdout())));
    each_file(
        paths,
        settings,
        None,
        sink,
        |format, name| {
            game_viewer::position_lines(
                format,
                named.then_some(name),
                no_name,
                Plies::All,
                None,
                options.clone(),
            )
        },
        false,
    )
}

/// `cescacs show INPUT --game N [--ply K] [--svg FILE]`.
pub fn show(
    input: &Path,
    game: usize,
    ply: Option<usize>,
    svg: Option<&Path>,
    settings: &Settings,
) -> i32 {
    let buffer = Shared::<Vec<u8>>::default();
    let sink = Sink::Stdout(Box::new(buffer.clone()));
    let options = options(settings);
    let paths = [input.to_path_buf()];
    let code = each_file(
        &paths,
        settings,
        svg,
        sink,
        |format, _| -> Box<dyn Fn(&cescacs_batch::RawGame) -> cescacs_batch::GameOutcome + Sync> {
            match svg {
                Some(_) => Box::new(game_viewer::ply_svg(format, game, ply, options.clone())),
                None => Box::new(game_viewer::position_lines(
                    format,
                    None,
                    true,
                    ply.map_or(Plies::Last, Plies::One),
                    Some(game),
                    options.clone(),
                )),
            }
        },
        true,
    );
    let code = match code {
        Ok(c) | Err(c) => c,
    };
    let out = buffer.take();
    if out.is_empty() {
        if code == 0 {
            return cannot_run(format!("{}: no game {game}", input.display()));
        }
        return code;
    }
    match svg {
        Some(path) => {
            if let Err(e) = write_file(path, &out) {
                return cannot_run(format!("{}: {e}", path.display()));
            }
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            if stdout.write_all(&out).and_then(|_| stdout.flush()).is_err() {
                return cescacs_batch::EXIT_CANNOT_RUN;
            }
        }
    }
    code
}

/// Writes beside the target, then renames: a failed write leaves the old file whole.
fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("part");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// `cescacs view`: the pages are written as the games come (one page of games in
/// memory at a time, see `game_viewer::PageWriter`).
pub fn view(args: ViewArgs) -> Result<i32, i32> {
    let title = args
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let mut writer = game_viewer::PageWriter::new(&title, &args.output, args.game);
    if let Some(module) = &args.play {
        let bytes = std::fs::read(module)
            .map_err(|e| cannot_run(format!("--play {}: {e}", module.display())))?;
        if !bytes.starts_with(b"\0asm") {
            return Err(cannot_run(format!(
                "--play {}: not a WebAssembly module",
                module.display()
            )));
        }
        writer = writer.play(&bytes);
    }
    let pages = Shared(Arc::new(Mutex::new(writer)));
    let sink = Sink::Stdout(Box::new(pages.clone()));
    let options = options(&args.common);
    let code = each_file(
        &args.inputs,
        &args.common,
        Some(&args.output),
        sink,
        |format, name| game_viewer::game_json(format, name, options.clone()),
        false,
    )?;
    let writer = std::mem::replace(
        &mut *pages.0.lock().map_err(|_| cannot_run("a worker failed"))?,
        game_viewer::PageWriter::new("", Path::new(""), None),
    );
    match writer.finish() {
        Ok((0, _)) => Err(cannot_run(match args.game {
            Some(n) => format!("--game {n}: no such readable game in the inputs"),
            None => "no readable game: nothing to show".to_string(),
        })),
        Ok((games, files)) => {
            cescacs_batch::print_line(&format!(
                "{games} games written to {}{}",
                args.output.display(),
                if files.len() > 1 {
                    format!(" (an index and {} pages beside it)", files.len() - 1)
                } else {
                    String::new()
                }
            ));
            Ok(code)
        }
        Err(e) => Err(cannot_run(format!("{}: {e}", args.output.display()))),
    }
}
