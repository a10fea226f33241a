//! Export format (spec §3–§7): deterministic bytes, idempotent through import.

use std::io::{self, Write};

use cozy_chess::{Board, Color};

use crate::model::{After, Game, Line, Variant};

/// The Seven Tag Roster, in export order.
pub const STR: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

const MAX_LINE: usize = 80;

/// The tag pairs exactly as export writes them: the roster (defaults for missing
/// ones, `Result` from the game's outcome), then the others in ASCII order of name,
/// with `FEN`/`SetUp` whenever the start is not the standard position.
pub fn export_tags(game: &Game) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(game.tags.len() + 7);
    for name in STR {
        let v = if name == "Result" {
            game.outcome.as_str().to_string()
        } else {
            match game.tags.iter().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None if name == "Date" => "????.??.??".to_string(),
                None => "?".to_string(),
            }
        };
        out.push((name.to_string(), v));
    }
    let mut rest: Vec<(String, String)> = game
        .tags
        .iter()
        .filter(|(n, _)| !STR.contains(&n.as_str()))
        .cloned()
        .collect();
    if game.start != *crate::replay::start_board() {
        // Shredder-FEN names the castling rooks exactly, which Chess960 needs.
        let fen = match game.variant {
            Variant::Chess960 => format!("{:#}", game.start),
            Variant::Standard => format!("{}", game.start),
        };
        rest.push(("FEN".into(), fen));
        rest.push(("SetUp".into(), "1".into()));
    }
    // Stable sort: equal names (duplicates) keep their order.
    rest.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out.extend(rest);
    out
}

struct Packer {
    out: String,
    line: usize,
    opens: usize,
    /// After a `;` comment the line must end before anything else is written.
    break_next: bool,
}

impl Packer {
    fn token(&mut self, t: &str) {
        if self.break_next {
            self.out.push('\n');
            self.line = 0;
            self.break_next = false;
        }
        let mut piece = String::new();
        for _ in 0..self.opens {
            piece.push('(');
        }
        self.opens = 0;
        piece.push_str(t);
        let w = piece.chars().count();
        if self.line > 0 && self.line + 1 + w > MAX_LINE {
            self.out.push('\n');
            self.line = 0;
        }
        if self.line > 0 {
            self.out.push(' ');
            self.line += 1;
        }
        self.out.push_str(&piece);
        self.line += w;
    }

    fn close(&mut self) {
        if self.break_next || self.line + 1 > MAX_LINE {
            self.break_next = false;
            self.out.push('\n');
            self.line = 0;
        }
        self.out.push(')');
        self.line += 1;
    }

    fn comment(&mut self, text: &str) {
        if text.contains('}') {
            // A brace comment cannot hold `}`; a `;` comment to the end of the line can,
            // at the price of a line that may pass 80 characters.
            // Line breaks would end it early: whitespace runs become one space, as the
            // reader keeps comments anyway.
            let flat: Vec<&str> = text.split_whitespace().collect();
            self.token(&format!(";{}", flat.join(" ")));
            self.break_next = true;
            return;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.len() {
            0 => self.token("{}"),
            1 => self.token(&format!("{{{}}}", words[0])),
            n => {
                self.token(&format!("{{{}", words[0]));
                for w in &words[1..n - 1] {
                    self.token(w);
                }
                self.token(&format!("{}}}", words[n - 1]));
            }
        }
    }
}

fn write_line(p: &mut Packer, line: &Line, start: &Board) {
    for c in &line.comments {
        p.comment(c);
    }
    let mut board = start.clone();
    let mut need_number = true;
    for node in &line.moves {
        let n = board.fullmove_number();
        if board.side_to_move() == Color::White {
            p.token(&format!("{n}."));
        } else if need_number {
            p.token(&format!("{n}..."));
        }
        p.token(&node.san.to_string());
        for &nag in &node.nags {
            if nag != 0 {
                p.token(&format!("${nag}"));
            }
        }
        need_number = false;
        for a in &node.after {
            match a {
                After::Comment(c) => p.comment(c),
                After::Variation(v) => {
                    p.opens += 1;
                    write_line(p, v, &board);
                    if p.opens > 0 {
                        // An empty line still gets its parentheses.
                        p.token("");
                    }
                    p.close();
                }
            }
            need_number = true;
        }
        crate::model::play(&mut board, node.mv);
    }
}

/// Writes one game in export format, followed by one blank line.
pub fn write_game<W: Write>(w: &mut W, game: &Game) -> io::Result<()> {
    w.write_all(to_pgn_string(game).as_bytes())
}

/// The export form of one game as a string (tags, blank line, movetext, blank line).
pub fn to_pgn_string(game: &Game) -> String {
    let mut s = String::new();
    for (n, v) in export_tags(game) {
        s.push('[');
        s.push_str(&n);
        s.push_str(" \"");
        for c in v.chars() {
            match c {
                '"' => s.push_str("\\\""),
                '\\' => s.push_str("\\\\"),
                // Export forbids tabs and line breaks inside strings.
                '\t' | '\n' | '\r' => s.push(' '),
                c => s.push(c),
            }
        }
        s.push_str("\"]\n");
    }
    s.push('\n');
    let mut p = Packer {
        out: String::new(),
        line: 0,
        opens: 0,
        break_next: false,
    };
    write_line(&mut p, &game.moves, &game.start);
    p.token(game.outcome.as_str());
    for c in &game.final_comments {
        p.comment(c);
    }
    s.push_str(&p.out);
    s.push_str("\n\n");
    s
}
