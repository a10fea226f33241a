//! Reads and replays CTL-PGN files; prints their diagnostics, final TLPD, and
//! optionally a written form.
//!
//! `cargo run -p ctl-pgn --example ctlpgn_dump -- FILE... [--write canonical|minimal|fan]`
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let form = match args.iter().position(|a| a == "--write") {
        Some(i) => match args.get(i + 1).map(String::as_str) {
            Some("minimal") => Some(ctl_pgn::Form::Minimal),
            Some("fan") => Some(ctl_pgn::Form::Fan),
            _ => Some(ctl_pgn::Form::Canonical),
        },
        None => None,
    };
    for path in args
        .iter()
        .filter(|a| !a.starts_with("--") && !matches!(a.as_str(), "canonical" | "minimal" | "fan"))
    {
        let src = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        for rec in ctl_pgn::replay(path, &src, ctl_pgn::Options::default()) {
            for d in &rec.diagnostics {
                println!("{d}");
            }
            if let Some(t) = rec.tlpd() {
                println!("{path}: game {}: {} plies: {t}", rec.index, rec.plies);
            }
            if let (Some(f), Some(g)) = (form, &rec.game) {
                print!("{}", ctl_pgn::write_game(g, f));
            }
        }
    }
}
