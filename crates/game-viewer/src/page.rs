//! The HTML page: the boards' drawings and the games as JSON in the page, a small
//! script that places the men, and the style. One file, no network request.

use crate::jobs::kind_name;
use board_svg::{BoardKind, defs, layout};
use serde_json::{Value, json};
use std::io;
use std::path::{Path, PathBuf};

/// The most games one HTML file holds. Above it, `cescacs view` writes the games in
/// pages of this many games beside the output, and the output itself becomes the
/// index: the list of every game, linking to its page. A chess game of 80 half-moves
/// is about 14 KB of page data, so a page stays near 7 MB (docs/viewer.md).
pub const MAX_GAMES_PER_PAGE: usize = 500;

const SCRIPT: &str = include_str!("page/viewer.js");
/// Play mode: the module's glue (an ES module; its `export`s dropped to inline it) and
/// the script that plays on the viewer's board.
const PLAY_CORE: &str = include_str!("page/wasm.js");
const PLAY_SCRIPT: &str = include_str!("page/play.js");
const STYLE: &str = include_str!("page/viewer.css");

/// JSON text that is safe inside a `<script>` element: every `<` escaped (it can only
/// occur within strings), so neither `</script>` nor `<!--` can end or change it.
fn script_json(v: &Value) -> String {
    v.to_string().replace('<', "\\u003c")
}

fn escape(s: &str) -> String {
    board_svg::escape(s)
}

/// The drawings the script needs for each board in `kinds`: the board without men
/// (as White and as Black sees it), the cell centres, the men's symbols and legend.
fn boards(kinds: &[BoardKind]) -> Value {
    let mut out = serde_json::Map::new();
    for &kind in kinds {
        let (a, b) = (layout(kind, false), layout(kind, true));
        let at = |l: &board_svg::Layout| {
            l.centres
                .iter()
                .map(|&(x, y)| json!([(x * 10.0).round() / 10.0, (y * 10.0).round() / 10.0]))
                .collect::<Vec<_>>()
        };
        // The arrow head of the last move, with the men's symbols.
        let defs = defs(kind).replace(
            "</defs>",
            r##"<marker id="v-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#2a7de1"/></marker></defs>"##,
        );
        let prefix = board_svg::symbol_id(kind, board_svg::Side::White, 'K');
        out.insert(
            kind_name(kind).to_string(),
            json!({
                "w": a.width.round(),
                "h": a.height.round(),
                "size": a.man_size,
                "bg": [a.background, b.background],
                "at": [at(&a), at(&b)],
                "defs": defs,
                "prefix": &prefix[..1],
                "legend": kind.legend().iter().map(|(l, n)| json!([l.to_string(), n])).collect::<Vec<_>>(),
            }),
        );
    }
    Value::Object(out)
}

fn kind_of(name: &str) -> Option<BoardKind> {
    [BoardKind::Chess, BoardKind::Xiangqi, BoardKind::Cescacs]
        .into_iter()
        .find(|k| kind_name(*k) == name)
}

/// One line of the game list: number, page file, White (Red), Black, Event, Date,
/// result.
fn index_row(no: usize, page: &str, g: &Head) -> Value {
    let tag = |name: &str| {
        g.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let white = if tag("White").is_empty() {
        tag("Red")
    } else {
        tag("White")
    };
    json!([
        no,
        page,
        white,
        tag("Black"),
        tag("Event"),
        tag("Date"),
        g.result.clone().unwrap_or_default()
    ])
}

/// What the page itself needs of a game's JSON: which board, and the game list's
/// columns.
#[derive(serde::Deserialize)]
struct Head {
    kind: String,
    tags: Vec<(String, String)>,
    result: Option<String>,
}

fn head(game: &str) -> Head {
    serde_json::from_str(game).unwrap_or(Head {
        kind: String::new(),
        tags: Vec::new(),
        result: None,
    })
}

/// An HTML page holding `games` (numbered from `first`), and `index` rows for an
/// index page (the games of other pages).
fn html(
    title: &str,
    games: &[String],
    first: usize,
    index: &[Value],
    play: Option<&str>,
) -> String {
    let mut kinds: Vec<BoardKind> = games
        .iter()
        .filter_map(|g| kind_of(&head(g).kind))
        .collect();
    kinds.sort_by_key(|k| kind_name(*k));
    kinds.dedup();
    // The games' JSON as given (no second tree of every game in memory), each numbered.
    let mut list = String::with_capacity(games.iter().map(|g| g.len() + 16).sum::<usize>() + 2);
    list.push('[');
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            list.push(',');
        }
        match g.trim().strip_prefix('{') {
            Some(rest) => {
                list.push_str(&format!("{{\"no\":{},", first + i));
                list.push_str(rest);
            }
            None => list.push_str("null"),
        }
    }
    list.push(']');
    let legend: String = BoardKind::Cescacs
        .legend()
        .iter()
        .map(|(l, n)| {
            format!(
                r##"<span><svg viewBox="0 0 100 100"><use href="#{}"/></svg><br>{l} {n}</span>"##,
                board_svg::symbol_id(BoardKind::Cescacs, board_svg::Side::White, *l)
            )
        })
        .collect();
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'{wasm_csp}; style-src 'unsafe-inline'; img-src data:">
<title>{title}</title>
<style>
{STYLE}</style>
</head>
<body>
<div id="app">
<header id="tags"></header>
<div id="boardbox">
<svg id="board" xmlns="http://www.w3.org/2000/svg" font-family="DejaVu Sans, Arial, sans-serif" data-position=""><g id="b-defs"></g><g id="b-bg"></g><g id="b-under"></g><g id="b-men"></g><g id="b-over"></g></svg>
<div id="caption"></div>
<div id="position"></div>
<div id="controls"><button id="first" title="start (Home)">|◀</button><button id="prev" title="back (←)">◀</button><button id="next" title="forward (→)">▶</button><button id="last" title="end (End)">▶|</button><button id="flip" title="flip the board (f)">⇅</button></div>
<div id="legend" style="display:none">{legend}</div>
</div>
<div id="moves"></div>
<div id="list"><input id="filter" placeholder="filter by player or event"><table><thead><tr><th>#</th><th>White / Red</th><th>Black</th><th>Event</th><th>Date</th><th>Result</th></tr></thead><tbody id="rows"></tbody></table></div>
</div>
<script type="application/json" id="boards">{boards}</script>
<script type="application/json" id="games">{games}</script>
<script type="application/json" id="index">{index}</script>
<script>
{SCRIPT}</script>
{play_part}</body>
</html>
"#,
        title = escape(title),
        wasm_csp = if play.is_some() {
            " 'wasm-unsafe-eval'"
        } else {
            ""
        },
        play_part = match play {
            None => String::new(),
            Some(module) => format!(
                "<script type=\"application/octet-stream\" id=\"wasm\">{module}</script>\n<script>\n\"use strict\";\n(() => {{\n{}\n{PLAY_SCRIPT}}})();\n</script>\n",
                PLAY_CORE.replace("export ", "")
            ),
        },
        boards = script_json(&boards(&kinds)),
        games = list.replace('<', "\\u003c"),
        index = script_json(&Value::Array(index.to_vec())),
    )
}

/// The viewer for `games` (each a JSON object, as a line [`crate::game_json`] gives): one HTML page, or,
/// above [`MAX_GAMES_PER_PAGE`] games, an index page and pages of that many games
/// named after it (`OUT-p001.html`, …). Returns each file's name and contents, the
/// first being the one to open. Games are numbered from 1 in input order; a page opened
/// with `#game=N&ply=K` shows game N after K half-moves of its main line.
pub fn pages(title: &str, out_name: &str, games: &[String]) -> Vec<(String, String)> {
    if games.len() <= MAX_GAMES_PER_PAGE {
        return vec![(out_name.to_string(), html(title, games, 1, &[], None))];
    }
    let stem = out_name.strip_suffix(".html").unwrap_or(out_name);
    let base = Path::new(stem)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut files = Vec::new();
    let mut index = Vec::new();
    for (p, chunk) in games.chunks(MAX_GAMES_PER_PAGE).enumerate() {
        let first = p * MAX_GAMES_PER_PAGE + 1;
        let page = format!("{base}-p{:03}.html", p + 1);
        index.extend(
            chunk
                .iter()
                .enumerate()
                .map(|(i, g)| index_row(first + i, &page, &head(g))),
        );
        let last = first + chunk.len() - 1;
        files.push((
            format!("{stem}-p{:03}.html", p + 1),
            html(
                &format!("{title} ({first}–{last})"),
                chunk,
                first,
                &[],
                None,
            ),
        ));
    }
    files.insert(0, (out_name.to_string(), html(title, &[], 1, &index, None)));
    files
}

/// Writes [`pages`] to disk: each file to a temporary name beside it, renamed over
/// the target only once written, so a failed run leaves no half-written page. Returns
/// the paths written, the index (or only page) first.
pub fn write_pages(title: &str, out: &Path, games: &[String]) -> io::Result<Vec<PathBuf>> {
    let name = out.to_string_lossy();
    let mut written = Vec::new();
    for (file, text) in pages(title, &name, games) {
        let path = PathBuf::from(file);
        write_whole(&path, &text)?;
        written.push(path);
    }
    Ok(written)
}

/// [`pages`] written as the games come, one page at a time, so a run holds at most
/// one page of games (and the index rows) in memory whatever the number of games: the
/// sink of `cescacs view`. It takes the lines of [`crate::game_json`] as bytes
/// ([`std::io::Write`]); [`PageWriter::finish`] writes what is left and the index.
pub struct PageWriter {
    title: String,
    out: PathBuf,
    only: Option<usize>,
    seen: usize,
    held: Vec<String>,
    index: Vec<Value>,
    written: Vec<PathBuf>,
    partial: Vec<u8>,
    /// The WebAssembly module in base64, for play mode.
    play: Option<String>,
}

impl PageWriter {
    /// A writer of the viewer for `out` (`OUT.html`; pages `OUT-p001.html`, … beside
    /// it when there are more than [`MAX_GAMES_PER_PAGE`] games). With `only`, the
    /// game of that number (from 1) is kept and the others are skipped.
    pub fn new(title: &str, out: &Path, only: Option<usize>) -> PageWriter {
        PageWriter {
            title: title.to_string(),
            out: out.to_path_buf(),
            only,
            seen: 0,
            held: Vec::new(),
            index: Vec::new(),
            written: Vec::new(),
            partial: Vec::new(),
            play: None,
        }
    }

    /// Play mode: every page embeds `module` (the `.wasm` of `crates/cescacs-wasm`,
    /// built by `cargo xtask wasm`) and lets one click a man to see its legal moves,
    /// play them (a move off the line starts a variation), undo, and export the game
    /// as its format's text or PCN (docs/wasm.md). Still one file, no network request.
    pub fn play(mut self, module: &[u8]) -> PageWriter {
        use base64::Engine;
        self.play = Some(base64::engine::general_purpose::STANDARD.encode(module));
        self
    }

    fn stem(&self) -> (String, String) {
        let name = self.out.to_string_lossy();
        let stem = name.strip_suffix(".html").unwrap_or(&name).to_string();
        let base = Path::new(&stem)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        (stem, base)
    }

    fn push(&mut self, game: String) -> io::Result<()> {
        self.seen += 1;
        if self.only.is_some_and(|n| n != self.seen) {
            return Ok(());
        }
        if self.held.len() == MAX_GAMES_PER_PAGE {
            self.flush_page()?;
        }
        self.held.push(game);
        Ok(())
    }

    /// Writes the held games as the next page.
    fn flush_page(&mut self) -> io::Result<()> {
        let (stem, base) = self.stem();
        let n = self.written.len() + 1;
        let first = self.index.len() + 1;
        let last = first + self.held.len() - 1;
        let page = format!("{base}-p{n:03}.html");
        let text = html(
            &format!("{} ({first}–{last})", self.title),
            &self.held,
            first,
            &[],
            self.play.as_deref(),
        );
        let path = PathBuf::from(format!("{stem}-p{n:03}.html"));
        write_whole(&path, &text)?;
        self.written.push(path);
        for (i, g) in self.held.drain(..).enumerate() {
            self.index.push(index_row(first + i, &page, &head(&g)));
        }
        Ok(())
    }

    /// Writes the last page and the index (or the only page); returns the number of
    /// games and the files written, the one to open first.
    pub fn finish(mut self) -> io::Result<(usize, Vec<PathBuf>)> {
        if !self.partial.is_empty() {
            let line = String::from_utf8_lossy(&std::mem::take(&mut self.partial)).into_owned();
            self.push(line)?;
        }
        if self.written.is_empty() {
            let count = self.held.len();
            if count > 0 {
                write_whole(
                    &self.out,
                    &html(&self.title, &self.held, 1, &[], self.play.as_deref()),
                )?;
                self.written.push(self.out.clone());
            }
            return Ok((count, self.written));
        }
        if !self.held.is_empty() {
            self.flush_page()?;
        }
        write_whole(&self.out, &html(&self.title, &[], 1, &self.index, None))?;
        self.written.insert(0, self.out.clone());
        Ok((self.index.len(), self.written))
    }
}

impl io::Write for PageWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.partial.extend_from_slice(&rest[..end]);
            rest = &rest[end + 1..];
            let line = std::mem::take(&mut self.partial);
            if !line.is_empty() {
                // Our own JSON: UTF-8 by construction.
                self.push(String::from_utf8_lossy(&line).into_owned())?;
            }
        }
        self.partial.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes beside the target and renames: no half-written page under its name.
fn write_whole(path: &Path, text: &str) -> io::Result<()> {
    let tmp = path.with_extension("html.part");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cescacs_convert::{Format, Record};

    fn game(pgn: &str, format: Format) -> String {
        let r = Record::from_bytes(format, pgn.as_bytes());
        crate::game_value(&crate::steps(&r).unwrap()).to_string()
    }

    #[test]
    fn a_page_is_self_contained_and_its_data_cannot_close_the_script() {
        let g = game(
            "[White \"</script><script>alert(1)</script>\"]\n\n1. e4 {<!-- x} e5 *\n",
            Format::Pgn,
        );
        let files = pages("t", "v.html", &[g]);
        assert_eq!(files.len(), 1);
        let page = &files[0].1;
        assert_eq!(page.matches("</script>").count(), 4, "only the page's own");
        assert!(!page.contains("<!-- x"));
        // The SVG namespace is a name, not an address anything fetches.
        let page = page.replace("http://www.w3.org/2000/svg", "");
        for remote in [
            "http://", "https://", "src=\"", "url(http", "@import", "//cdn",
        ] {
            assert!(!page.contains(remote), "{remote}");
        }
    }

    #[test]
    fn many_games_make_an_index_and_pages() {
        let g = game("1. e4 e5 *\n", Format::Pgn);
        let games = vec![g.clone(); MAX_GAMES_PER_PAGE + 1];
        let files = pages("t", "dir/v.html", &games);
        // The streaming writer writes the same files.
        let dir = std::env::temp_dir().join(format!("game-viewer-pages-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut w = PageWriter::new("t", &dir.join("v.html"), None);
        for _ in 0..=MAX_GAMES_PER_PAGE {
            io::Write::write_all(&mut w, format!("{g}\n").as_bytes()).unwrap();
        }
        let (count, written) = w.finish().unwrap();
        assert_eq!(count, MAX_GAMES_PER_PAGE + 1);
        for ((name, text), path) in files.iter().zip(&written) {
            assert!(name.ends_with(path.file_name().unwrap().to_str().unwrap()));
            assert_eq!(&std::fs::read_to_string(path).unwrap(), text);
        }
        assert_eq!(written.len(), 3);
        std::fs::remove_dir_all(&dir).ok();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["dir/v.html", "dir/v-p001.html", "dir/v-p002.html"]);
        // The index lists every game and links to its page by its own name.
        assert!(
            files[0]
                .1
                .contains(&format!("[{},\"v-p002.html\"", MAX_GAMES_PER_PAGE + 1))
        );
        assert!(
            files[2]
                .1
                .contains(&format!("\"no\":{}", MAX_GAMES_PER_PAGE + 1))
        );
    }
}
