//! Project automation: `cargo xtask corpus-check`, `cargo xtask bench`, `cargo xtask fuzz --smoke`.
fn main() {
    let task = std::env::args().nth(1);
    match task.as_deref() {
        _ => {
            eprintln!("usage: cargo xtask <corpus-check|bench|fuzz>");
            std::process::exit(2);
        }
    }
}
