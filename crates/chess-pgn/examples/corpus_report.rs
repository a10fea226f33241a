//! Reads every `.pgn` under the given folders and writes a Markdown report: per
//! file, how many games replay cleanly, and every game that does not, with
//! file:line:col and the reason. Also checks import → export → import per game.
//!
//! cargo run --release -p chess-pgn --example corpus_report -- \
//!     /work/shared/corpus/classic-pgn-real testdata/chess/oracle.tsv > docs/chess-pgn-corpus-report.md
//!
//! An argument ending in `.tsv` is python-chess's replay of the same files
//! (`peers/python-chess-bench/oracle.py`): each game we do not replay is then
//! shown with python-chess's verdict, and every disagreement is listed.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use chess_pgn::{Games, Severity, to_pgn_string};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "pgn") {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let (oracles, roots): (Vec<PathBuf>, Vec<PathBuf>) = args
        .into_iter()
        .partition(|p| p.extension().is_some_and(|e| e == "tsv"));
    // (file, game) -> (variant, plies, final FEN or "ERROR ...")
    let mut oracle: HashMap<(String, usize), (String, usize, String)> = HashMap::new();
    for o in &oracles {
        let text = fs::read_to_string(o).unwrap_or_default();
        for l in text.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = l.split('\t').collect();
            if let [file, game, variant, plies, fen] = f[..] {
                oracle.insert(
                    (file.to_string(), game.parse().unwrap_or(0)),
                    (
                        variant.to_string(),
                        plies.parse().unwrap_or(0),
                        fen.to_string(),
                    ),
                );
            }
        }
    }
    let verdict = |name: &str, idx: usize| -> String {
        match oracle.get(&(name.to_string(), idx)) {
            None => "-".into(),
            Some((_, _, e)) if e.starts_with("ERROR") => format!("also fails: {}", &e[6..]),
            Some((v, p, _)) => format!("replays {p} plies as `{v}`"),
        }
    };
    let mut disagreements = Vec::new();
    let mut files = Vec::new();
    for r in &roots {
        collect(r, &mut files);
    }
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let (mut total, mut clean, mut bad, mut skipped, mut rt_fail) = (0, 0, 0, 0, 0);
    for f in &files {
        let name = roots
            .iter()
            .find_map(|r| f.strip_prefix(r).ok())
            .unwrap_or(f)
            .display()
            .to_string();
        let file = match fs::File::open(f) {
            Ok(x) => x,
            Err(e) => {
                problems.push(format!("| `{name}` | - | - | cannot open: {e} |"));
                continue;
            }
        };
        let (mut n, mut ok, mut nbad, mut nskip, mut plies) = (0, 0, 0, 0, 0usize);
        for g in Games::new(std::io::BufReader::new(file)) {
            n += 1;
            match g {
                Ok(game) => {
                    plies += game.moves.moves.len();
                    let errs: Vec<_> = game.errors().collect();
                    if let Some((_, plies_o, fen_o)) = oracle.get(&(name.clone(), n)) {
                        let ours = game.final_board().to_string();
                        let same_place = ours.split(' ').next() == fen_o.split(' ').next();
                        if *plies_o != game.moves.moves.len() || !same_place {
                            disagreements.push(format!(
                                "| `{name}:{}:{}` | {n} | {} plies, `{ours}` | {plies_o} plies, `{fen_o}` |",
                                game.at.line,
                                game.at.col,
                                game.moves.moves.len()
                            ));
                        }
                    }
                    if errs.is_empty() {
                        ok += 1;
                    } else {
                        nbad += 1;
                        for e in errs {
                            problems.push(format!(
                                "| `{name}:{}:{}` | {} | {} | {} | {} |",
                                e.at.line,
                                e.at.col,
                                game.index,
                                game.moves.moves.len(),
                                e.message.replace('|', "\\|"),
                                verdict(&name, n)
                            ));
                        }
                    }
                    for w in game
                        .diagnostics
                        .iter()
                        .filter(|d| d.severity == Severity::Warning)
                    {
                        warnings.push(format!(
                            "| `{name}:{}:{}` | {} | {} |",
                            w.at.line,
                            w.at.col,
                            game.index,
                            w.message.replace('|', "\\|")
                        ));
                    }
                    let once = to_pgn_string(&game);
                    let again: Vec<_> = Games::new(once.as_bytes()).collect();
                    let same = match again.as_slice() {
                        [Ok(g2)] => g2.same_content(&game) && to_pgn_string(g2) == once,
                        _ => false,
                    };
                    if !same {
                        rt_fail += 1;
                        problems.push(format!(
                            "| `{name}:{}:{}` | {} | - | ROUND TRIP MISMATCH | - |",
                            game.at.line, game.at.col, game.index
                        ));
                    }
                }
                Err(e) => {
                    nskip += 1;
                    let at = e
                        .at()
                        .map(|p| format!("{}:{}", p.line, p.col))
                        .unwrap_or_default();
                    problems.push(format!(
                        "| `{name}:{at}` | {n} | - | skipped: {} | {} |",
                        e.to_string().replace('|', "\\|"),
                        verdict(&name, n)
                    ));
                }
            }
        }
        total += n;
        clean += ok;
        bad += nbad;
        skipped += nskip;
        rows.push(format!(
            "| `{name}` | {n} | {ok} | {nbad} | {nskip} | {plies} |"
        ));
    }
    println!("# chess-pgn corpus report\n");
    println!(
        "Generated by `cargo run --release -p chess-pgn --example corpus_report -- {}` (do not edit by hand).\n",
        roots
            .iter()
            .chain(&oracles)
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "Files: {}; games: {total}; replayed without error: {clean}; read with errors (kept up to the first bad move): {bad}; skipped (unsupported variant / bad set-up): {skipped}; round-trip mismatches: {rt_fail}.\n",
        files.len()
    );
    println!(
        "A game counts as replayed when every main-line and variation move resolved to exactly one legal move.\n"
    );
    println!(
        "## Per file\n\n| file | games | replayed | with errors | skipped | main-line plies |\n|---|---:|---:|---:|---:|---:|"
    );
    for r in rows {
        println!("{r}");
    }
    println!(
        "\n## Games not replayed in full\n\n| where | game # | plies kept | reason | python-chess |\n|---|---:|---:|---|---|"
    );
    for p in problems {
        println!("{p}");
    }
    if !oracle.is_empty() {
        let illegal: Vec<String> = oracle
            .iter()
            .filter(|(_, (_, _, f))| f.starts_with("ERROR"))
            .map(|((file, g), (_, _, f))| format!("`{file}` game {g}: {f}"))
            .collect();
        println!(
            "\nGames genuinely illegal or unreadable in the source (python-chess fails on them too): {}.",
            if illegal.is_empty() {
                "none".to_string()
            } else {
                illegal.join("; ")
            }
        );
        println!("\n## Disagreements with python-chess on games we replay\n");
        println!(
            "Games read differently. chess-pgn accepts German piece letters (S L T D, spec §6), which python-chess does not know.\n\n| where | game # | chess-pgn | python-chess |\n|---|---:|---|---|"
        );
        for d in &disagreements {
            println!("{d}");
        }
        if disagreements.is_empty() {
            println!("| (none) | | | |");
        }
    }
    println!("\n## Warnings (game still replayed)\n\n| where | game # | warning |\n|---|---:|---|");
    for w in warnings {
        println!("{w}");
    }
}
