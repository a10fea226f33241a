//! The batch engine with nothing to do per game: what `cescacs check -j 1` costs
//! besides reading the games (file reading, splitting, batching), for profiling.
//!
//! `cargo run --release -p cescacs-batch --example split_speed -- FILE`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: split_speed FILE")?;
    let input = cescacs_batch::Input::open(std::path::Path::new(&path))?;
    let options = cescacs_batch::Options {
        jobs: 1,
        ..cescacs_batch::Options::default()
    };
    let summary = cescacs_batch::run(
        vec![input],
        &options,
        &mut std::io::sink(),
        |_| cescacs_batch::GameOutcome::default(),
        |_| {},
    )?;
    println!("{} games", summary.games);
    Ok(())
}
