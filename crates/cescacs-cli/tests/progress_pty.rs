//! The progress bar on a compressed input, seen as a user sees it: the CLI runs under a
//! pseudo-terminal (`script` from util-linux), so that standard error is a terminal and
//! the bar is drawn, and the test reads what was drawn. On a `.zst` the bar counts the
//! compressed bytes read against the file's size (it used to stay empty, its total the
//! unknown size of the decompressed text).

use std::process::Command;

/// Games whose comments are pseudo-random text, so that the compressed file is large
/// (a few MB) and is read in many pieces.
fn games(n: usize) -> Vec<u8> {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut text = Vec::new();
    for i in 0..n {
        let comment: String = (0..120)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b"abcdefghijklmnopqrstuvwxyz0123456789"[(seed >> 33) as usize % 36])
            })
            .collect();
        text.extend_from_slice(
            format!("[Event \"e{i}\"]\n[Result \"*\"]\n\n1. e4 {{{comment}}} e5 2. Nf3 Nc6 *\n\n")
                .as_bytes(),
        );
    }
    text
}

/// Sizes drawn by the bar, in bytes, as `{bytes}/{total_bytes}` prints them.
fn drawn(screen: &str) -> Vec<(f64, f64)> {
    let unit = |n: &str, u: &str| {
        let scale = match u {
            "B" => 1.0,
            "KiB" => 1024.0,
            "MiB" => 1024.0 * 1024.0,
            _ => f64::NAN,
        };
        n.parse::<f64>().unwrap_or(f64::NAN) * scale
    };
    let mut out = Vec::new();
    for piece in screen.split('/').collect::<Vec<_>>().windows(2) {
        let before: Vec<&str> = piece[0].split_whitespace().rev().take(2).collect();
        let after: Vec<&str> = piece[1].split_whitespace().take(2).collect();
        if let ([u1, n1], [n2, u2]) = (before.as_slice(), after.as_slice()) {
            let (a, b) = (unit(n1, u1), unit(n2, u2));
            if a.is_finite() && b.is_finite() {
                out.push((a, b));
            }
        }
    }
    out
}

#[test]
fn the_bar_advances_on_a_zstd_input() {
    let dir = std::env::temp_dir().join(format!("cescacs-pty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn.zst");
    let packed = zstd::encode_all(&games(30_000)[..], 3).unwrap();
    std::fs::write(&path, &packed).unwrap();
    let size = packed.len() as f64;
    let command = format!(
        "{} check -j1 {}",
        env!("CARGO_BIN_EXE_cescacs"),
        path.display()
    );
    // `script -q -c CMD /dev/null`: CMD on a new pseudo-terminal, what it draws copied
    // to our standard output.
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .output()
        .expect("`script` (util-linux) runs: it gives the CLI a terminal");
    let screen = String::from_utf8_lossy(&out.stdout).to_string();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(0), "{screen}");
    assert!(
        screen.contains("30000 game(s) read, 30000 valid"),
        "{screen}"
    );
    let sizes = drawn(&screen);
    // The total is the compressed file's size (to the 3 digits the bar prints)…
    let totals: Vec<f64> = sizes.iter().map(|s| s.1).collect();
    assert!(
        !totals.is_empty() && totals.iter().all(|t| (t - size).abs() / size < 0.01),
        "total {size} bytes; drawn {sizes:?}\n{screen}"
    );
    // …and the bar was drawn part of the way: progress between nothing and all.
    assert!(
        sizes
            .iter()
            .any(|&(done, total)| done > 0.0 && done < total),
        "no position between 0 and the total: {sizes:?}\n{screen}"
    );
}
