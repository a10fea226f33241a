//! `cargo xtask api-check [--bless]`: each library crate's public API, as a user sees it,
//! against the listing committed in `api/<crate>.txt`.
//!
//! The listing comes from rustdoc's JSON output (`--output-format json`, unstable, reached
//! with `RUSTC_BOOTSTRAP=1` on the stable toolchain): starting at the crate root, every
//! public item a user can name — through public modules and re-exports — is written as
//! one line with its path and signature (fields, variants, inherent methods, trait
//! implementations other than blanket ones, `#[non_exhaustive]`). A re-export of another
//! crate is one `pub use` line. The lines are sorted, so a diff of two listings is the
//! change of the surface.
//!
//! Without `--bless` a difference fails (exit 1) and prints the lines added and removed;
//! `--bless` rewrites the listings after an intended change. The JSON format is
//! unstable: the parser checks `format_version` and names it when it changes.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The library crates whose API is recorded (every crate a user may depend on).
pub const LIBRARIES: &[&str] = &[
    "cescacs-hex",
    "perft",
    "cescacs-rules",
    "xiangqi",
    "cescacs-tlpd",
    "pgn-core",
    "pcn",
    "board-svg",
    "ctl-pgn",
    "chess-pgn",
    "xiangqi-pgn",
    "pcn-convert",
    "cescacs-batch",
    "cescacs-convert",
    "game-viewer",
];

/// The rustdoc JSON format this renderer was written against (Rust 1.95).
const FORMAT_VERSION: u64 = 57;

/// `cargo xtask api-check [--bless] [CRATE…]`.
pub fn run(args: &[String]) -> Result<bool, String> {
    let bless = args.iter().any(|a| a == "--bless");
    let chosen: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(String::as_str)
        .collect();
    for c in &chosen {
        if !LIBRARIES.contains(c) {
            return Err(format!("{c} is not a library crate of the workspace"));
        }
    }
    let root = crate::root();
    let mut clean = true;
    for krate in LIBRARIES
        .iter()
        .filter(|c| chosen.is_empty() || chosen.contains(c))
    {
        let listing = listing(&root, krate)?;
        let file = root.join("api").join(format!("{krate}.txt"));
        if bless {
            std::fs::create_dir_all(root.join("api")).map_err(|e| format!("api/: {e}"))?;
            std::fs::write(&file, &listing).map_err(|e| format!("{}: {e}", file.display()))?;
            println!("{krate}: {} items written", listing.lines().count());
            continue;
        }
        let recorded = std::fs::read_to_string(&file).unwrap_or_default();
        if recorded == listing {
            println!("{krate}: {} items, as recorded", listing.lines().count());
            continue;
        }
        clean = false;
        let old: BTreeSet<&str> = recorded.lines().collect();
        let new: BTreeSet<&str> = listing.lines().collect();
        println!("{krate}: public API differs from api/{krate}.txt");
        for l in old.difference(&new) {
            println!("  - {l}");
        }
        for l in new.difference(&old) {
            println!("  + {l}");
        }
    }
    if !clean {
        println!(
            "the public API changed: if intended, run `cargo xtask api-check --bless` and \
             commit api/ (and say so in CHANGELOG.md)"
        );
    }
    Ok(clean)
}

/// Runs rustdoc's JSON output for `krate` and renders its listing.
fn listing(root: &Path, krate: &str) -> Result<String, String> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["rustdoc", "-q", "--lib", "-p", krate, "--"])
        .args(["-Zunstable-options", "--output-format", "json"])
        // doc(hidden) items are reachable by users: hiding is not narrowing.
        .arg("--document-hidden-items")
        .env("RUSTC_BOOTSTRAP", "1")
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo rustdoc: {e}"))?;
    if !status.success() {
        return Err(format!("cargo rustdoc -p {krate} failed ({status})"));
    }
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| root.join("target"));
    let json = target
        .join("doc")
        .join(format!("{}.json", krate.replace('-', "_")));
    let text = std::fs::read_to_string(&json).map_err(|e| format!("{}: {e}", json.display()))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    render(&doc, &krate.replace('-', "_"))
}

/// Renders the public surface of a rustdoc JSON document as sorted lines.
pub fn render(doc: &Value, name: &str) -> Result<String, String> {
    let version = doc["format_version"].as_u64().unwrap_or(0);
    if version != FORMAT_VERSION {
        return Err(format!(
            "rustdoc JSON format {version}, this renderer reads {FORMAT_VERSION}: \
             update xtask/src/api.rs for the toolchain"
        ));
    }
    let mut w = Walker {
        doc,
        lines: BTreeSet::new(),
        seen: HashSet::new(),
    };
    let root = id_key(&doc["root"]);
    w.item(&root, name);
    let mut out = String::new();
    for l in &w.lines {
        out.push_str(l);
        out.push('\n');
    }
    Ok(out)
}

fn id_key(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

struct Walker<'a> {
    doc: &'a Value,
    lines: BTreeSet<String>,
    /// (item, path) pairs already written: a module reached twice by the same path is
    /// walked once, and a cycle of glob re-exports ends.
    seen: HashSet<(String, String)>,
}

impl<'a> Walker<'a> {
    fn get(&self, id: &str) -> Option<&'a Value> {
        let doc: &'a Value = self.doc;
        doc["index"].get(id)
    }

    /// The item `id` as the user names it, `path`.
    fn item(&mut self, id: &str, path: &str) {
        if !self.seen.insert((id.to_string(), path.to_string())) {
            return;
        }
        let doc = self.doc;
        let Some(item) = doc["index"].get(id) else {
            return;
        };
        let attrs = non_exhaustive(item);
        let Some((kind, inner)) = item["inner"].as_object().and_then(|o| o.iter().next()) else {
            return;
        };
        match kind.as_str() {
            "module" => {
                self.lines.push_line(format!("pub mod {path}"));
                for child in inner["items"].as_array().into_iter().flatten() {
                    self.child(&id_key(child), path);
                }
            }
            "use" => self.reexport(inner, path),
            "struct" => {
                self.lines.push_line(format!(
                    "{attrs}pub struct {path}{}",
                    generics(&inner["generics"])
                ));
                match &inner["kind"] {
                    Value::Object(o) if o.contains_key("plain") => {
                        for f in o["plain"]["fields"].as_array().into_iter().flatten() {
                            self.field(&id_key(f), path);
                        }
                    }
                    Value::Object(o) if o.contains_key("tuple") => {
                        for (i, f) in o["tuple"].as_array().into_iter().flatten().enumerate() {
                            if let Some(f) = self.get(&id_key(f)) {
                                let t = ty(&f["inner"]["struct_field"]);
                                self.lines.push_line(format!("pub {path}.{i}: {t}"));
                            }
                        }
                    }
                    _ => {}
                }
                self.impls(&inner["impls"], path);
            }
            "enum" => {
                self.lines.push_line(format!(
                    "{attrs}pub enum {path}{}",
                    generics(&inner["generics"])
                ));
                for v in inner["variants"].as_array().into_iter().flatten() {
                    self.variant(&id_key(v), path);
                }
                self.impls(&inner["impls"], path);
            }
            "union" => {
                self.lines.push_line(format!("pub union {path}"));
                self.impls(&inner["impls"], path);
            }
            "trait" => {
                let bounds = bounds(&inner["bounds"]);
                let sep = if bounds.is_empty() { "" } else { ": " };
                self.lines.push_line(format!(
                    "pub trait {path}{}{sep}{bounds}",
                    generics(&inner["generics"])
                ));
                for child in inner["items"].as_array().into_iter().flatten() {
                    let cid = id_key(child);
                    if let Some(c) = self.get(&cid) {
                        let n = c["name"].as_str().unwrap_or("?").to_string();
                        let line = assoc(c, &format!("{path}::{n}"));
                        self.lines.push_line(line);
                    }
                }
            }
            "function" => {
                let line = function(inner, path);
                self.lines.push_line(line);
            }
            "constant" => {
                self.lines
                    .push_line(format!("pub const {path}: {}", ty(&inner["type"])));
            }
            "static" => {
                self.lines
                    .push_line(format!("pub static {path}: {}", ty(&inner["type"])));
            }
            "type_alias" => {
                self.lines.push_line(format!(
                    "pub type {path}{} = {}",
                    generics(&inner["generics"]),
                    ty(&inner["type"])
                ));
            }
            "macro" | "proc_macro" => self.lines.push_line(format!("macro {path}!")),
            other => self.lines.push_line(format!("{other} {path}")),
        }
    }

    /// A module's child: followed when public.
    fn child(&mut self, id: &str, parent: &str) {
        let Some(c) = self.get(id) else { return };
        if c["visibility"] != "public" {
            return;
        }
        let is_use = c["inner"].get("use").is_some();
        if is_use {
            let inner = c["inner"]["use"].clone();
            self.reexport(&inner, parent);
            return;
        }
        let Some(n) = c["name"].as_str() else { return };
        let path = format!("{parent}::{n}");
        self.item(id, &path);
    }

    /// `pub use source as name;` inside `parent`: local targets are listed where the
    /// user names them; other crates' items are one `pub use` line.
    fn reexport(&mut self, inner: &Value, parent: &str) {
        let target = id_key(&inner["id"]);
        let name = inner["name"].as_str().unwrap_or("?");
        let source = inner["source"].as_str().unwrap_or("?");
        let glob = inner["is_glob"].as_bool().unwrap_or(false);
        let local = !target.is_empty()
            && self
                .get(&target)
                .is_some_and(|t| t["crate_id"].as_u64() == Some(0));
        if !local {
            let line = if glob {
                format!("pub use {parent}::* = {source}::*")
            } else {
                format!("pub use {parent}::{name} = {source}")
            };
            self.lines.push_line(line);
            return;
        }
        if glob {
            let items = self.doc["index"][&target]["inner"]["module"]["items"].clone();
            for child in items.as_array().into_iter().flatten() {
                self.child(&id_key(child), parent);
            }
        } else {
            self.item(&target, &format!("{parent}::{name}"));
        }
    }

    fn field(&mut self, id: &str, owner: &str) {
        let Some(f) = self.get(id) else { return };
        if f["visibility"] != "public" {
            return;
        }
        let line = format!(
            "pub {owner}.{}: {}",
            f["name"].as_str().unwrap_or("?"),
            ty(&f["inner"]["struct_field"])
        );
        self.lines.push_line(line);
    }

    fn variant(&mut self, id: &str, owner: &str) {
        let Some(v) = self.get(id) else { return };
        let name = v["name"].as_str().unwrap_or("?");
        let attrs = non_exhaustive(v);
        let kind = &v["inner"]["variant"]["kind"];
        let shape = match kind {
            Value::Object(o) if o.contains_key("tuple") => {
                let parts: Vec<String> = o["tuple"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|f| match self.get(&id_key(f)) {
                        Some(f) => ty(&f["inner"]["struct_field"]),
                        None => "_".into(),
                    })
                    .collect();
                format!("({})", parts.join(", "))
            }
            Value::Object(o) if o.contains_key("struct") => {
                let parts: Vec<String> = o["struct"]["fields"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|f| self.get(&id_key(f)))
                    .map(|f| {
                        format!(
                            "{}: {}",
                            f["name"].as_str().unwrap_or("?"),
                            ty(&f["inner"]["struct_field"])
                        )
                    })
                    .collect();
                format!(" {{ {} }}", parts.join(", "))
            }
            _ => String::new(),
        };
        let line = format!("{attrs}pub {owner}::{name}{shape}");
        self.lines.push_line(line);
    }

    /// Inherent methods and constants, and the traits implemented (blanket
    /// implementations and auto traits other than Send and Sync left out).
    fn impls(&mut self, impls: &Value, owner: &str) {
        for i in impls.as_array().into_iter().flatten() {
            let Some(imp) = self.get(&id_key(i)) else {
                continue;
            };
            let imp = &imp["inner"]["impl"];
            if !imp["blanket_impl"].is_null() {
                continue;
            }
            match &imp["trait"] {
                Value::Null => {
                    for child in imp["items"].as_array().into_iter().flatten() {
                        let Some(c) = self.get(&id_key(child)) else {
                            continue;
                        };
                        if c["visibility"] != "public" {
                            continue;
                        }
                        let n = c["name"].as_str().unwrap_or("?");
                        let line = assoc(c, &format!("{owner}::{n}"));
                        self.lines.push_line(line);
                    }
                }
                t => {
                    let tname = path_ty(t);
                    let synthetic = imp["is_synthetic"].as_bool().unwrap_or(false);
                    if synthetic && !(tname.starts_with("Send") || tname.starts_with("Sync")) {
                        continue;
                    }
                    let neg = if imp["is_negative"].as_bool().unwrap_or(false) {
                        "!"
                    } else {
                        ""
                    };
                    // Named by the owner's path (so a listing sorts by type), with the
                    // generic arguments of the implementing type.
                    let for_ty = ty(&imp["for"]);
                    let args = for_ty.find('<').map_or("", |i| &for_ty[i..]);
                    let line = format!(
                        "impl{} {neg}{tname} for {owner}{args}",
                        generics(&imp["generics"]),
                    );
                    self.lines.push_line(line);
                }
            }
        }
    }
}

trait PushLine {
    fn push_line(&mut self, l: String);
}

impl PushLine for BTreeSet<String> {
    fn push_line(&mut self, l: String) {
        self.insert(l);
    }
}

fn non_exhaustive(item: &Value) -> &'static str {
    let attrs = item["attrs"].to_string();
    if attrs.contains("non_exhaustive") {
        "#[non_exhaustive] "
    } else {
        ""
    }
}

/// An associated item (method, constant, type) at `path`.
fn assoc(c: &Value, path: &str) -> String {
    let Some((kind, inner)) = c["inner"].as_object().and_then(|o| o.iter().next()) else {
        return format!("? {path}");
    };
    match kind.as_str() {
        "function" => function(inner, path),
        "assoc_const" => format!("pub const {path}: {}", ty(&inner["type"])),
        "constant" => format!("pub const {path}: {}", ty(&inner["type"])),
        "assoc_type" => {
            let b = bounds(&inner["bounds"]);
            let sep = if b.is_empty() { "" } else { ": " };
            format!("type {path}{sep}{b}")
        }
        other => format!("{other} {path}"),
    }
}

fn function(inner: &Value, path: &str) -> String {
    let h = &inner["header"];
    let mut q = String::new();
    if h["is_const"].as_bool() == Some(true) {
        q.push_str("const ");
    }
    if h["is_async"].as_bool() == Some(true) {
        q.push_str("async ");
    }
    if h["is_unsafe"].as_bool() == Some(true) {
        q.push_str("unsafe ");
    }
    let sig = &inner["sig"];
    let args: Vec<String> = sig["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            let n = a[0].as_str().unwrap_or("_");
            let t = ty(&a[1]);
            match (n, t.as_str()) {
                ("self", "Self") => "self".into(),
                ("self", "&Self") => "&self".into(),
                ("self", "&mut Self") => "&mut self".into(),
                _ => format!("{n}: {t}"),
            }
        })
        .collect();
    let out = match &sig["output"] {
        Value::Null => String::new(),
        t => format!(" -> {}", ty(t)),
    };
    format!(
        "pub {q}fn {path}{}({}){out}{}",
        generics(&inner["generics"]),
        args.join(", "),
        where_clause(&inner["generics"])
    )
}

/// `<'a, T: Bound>` (synthetic `impl Trait` parameters left out: they show in the
/// argument types).
fn generics(g: &Value) -> String {
    let params: Vec<String> = g["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let name = p["name"].as_str().unwrap_or("?");
            let kind = &p["kind"];
            if let Some(t) = kind.get("type") {
                if t["is_synthetic"].as_bool() == Some(true) {
                    return None;
                }
                let b = bounds(&t["bounds"]);
                Some(if b.is_empty() {
                    name.to_string()
                } else {
                    format!("{name}: {b}")
                })
            } else if let Some(c) = kind.get("const") {
                Some(format!("const {name}: {}", ty(&c["type"])))
            } else {
                Some(name.to_string())
            }
        })
        .collect();
    if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    }
}

fn where_clause(g: &Value) -> String {
    let preds: Vec<String> = g["where_predicates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let b = p.get("bound_predicate")?;
            Some(format!("{}: {}", ty(&b["type"]), bounds(&b["bounds"])))
        })
        .collect();
    if preds.is_empty() {
        String::new()
    } else {
        format!(" where {}", preds.join(", "))
    }
}

fn bounds(b: &Value) -> String {
    let parts: Vec<String> = b
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| {
            if let Some(t) = b.get("trait_bound") {
                let m = match t["modifier"].as_str() {
                    Some("maybe") => "?",
                    _ => "",
                };
                format!("{m}{}", path_ty(&t["trait"]))
            } else if let Some(l) = b.get("outlives") {
                l.as_str().unwrap_or("'_").to_string()
            } else {
                "_".into()
            }
        })
        .collect();
    parts.join(" + ")
}

/// A path with its generic arguments, e.g. `Result<T, E>`, `Fn(u8) -> bool`.
fn path_ty(p: &Value) -> String {
    let name = p["path"].as_str().unwrap_or("?");
    // Keep the last segment of paths into std and other crates short but unambiguous
    // enough for a diff: the path as rustdoc resolved it.
    let mut s = name.to_string();
    let args = &p["args"];
    if let Some(a) = args.get("angle_bracketed") {
        let mut parts: Vec<String> = a["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|g| {
                if let Some(t) = g.get("type") {
                    ty(t)
                } else if let Some(l) = g.get("lifetime") {
                    l.as_str().unwrap_or("'_").to_string()
                } else if let Some(c) = g.get("const") {
                    c["expr"].as_str().unwrap_or("_").to_string()
                } else {
                    "_".into()
                }
            })
            .collect();
        for c in a["constraints"].as_array().into_iter().flatten() {
            let n = c["name"].as_str().unwrap_or("?");
            if let Some(t) = c["binding"].get("equality").and_then(|e| e.get("type")) {
                parts.push(format!("{n} = {}", ty(t)));
            }
        }
        if !parts.is_empty() {
            s.push_str(&format!("<{}>", parts.join(", ")));
        }
    } else if let Some(a) = args.get("parenthesized") {
        let inputs: Vec<String> = a["inputs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(ty)
            .collect();
        s.push_str(&format!("({})", inputs.join(", ")));
        if !a["output"].is_null() {
            s.push_str(&format!(" -> {}", ty(&a["output"])));
        }
    }
    s
}

/// A type as written in a signature.
fn ty(t: &Value) -> String {
    let Some((kind, v)) = t.as_object().and_then(|o| o.iter().next()) else {
        return "_".into();
    };
    match kind.as_str() {
        "resolved_path" => path_ty(v),
        "primitive" | "generic" => v.as_str().unwrap_or("?").to_string(),
        "borrowed_ref" => {
            let l = v["lifetime"]
                .as_str()
                .map(|l| format!("{l} "))
                .unwrap_or_default();
            let m = if v["is_mutable"].as_bool() == Some(true) {
                "mut "
            } else {
                ""
            };
            format!("&{l}{m}{}", ty(&v["type"]))
        }
        "raw_pointer" => {
            let m = if v["is_mutable"].as_bool() == Some(true) {
                "mut"
            } else {
                "const"
            };
            format!("*{m} {}", ty(&v["type"]))
        }
        "slice" => format!("[{}]", ty(v)),
        "array" => format!("[{}; {}]", ty(&v["type"]), v["len"].as_str().unwrap_or("_")),
        "tuple" => {
            let parts: Vec<String> = v.as_array().into_iter().flatten().map(ty).collect();
            format!("({})", parts.join(", "))
        }
        "impl_trait" => format!("impl {}", bounds(v)),
        "dyn_trait" => {
            let parts: Vec<String> = v["traits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| path_ty(&p["trait"]))
                .collect();
            let l = v["lifetime"]
                .as_str()
                .map(|l| format!(" + {l}"))
                .unwrap_or_default();
            format!("dyn {}{l}", parts.join(" + "))
        }
        "qualified_path" => {
            let tr = if v["trait"].is_null() {
                String::new()
            } else {
                format!(" as {}", path_ty(&v["trait"]))
            };
            format!(
                "<{}{tr}>::{}",
                ty(&v["self_type"]),
                v["name"].as_str().unwrap_or("?")
            )
        }
        "function_pointer" => {
            let inputs: Vec<String> = v["sig"]["inputs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| ty(&a[1]))
                .collect();
            let out = if v["sig"]["output"].is_null() {
                String::new()
            } else {
                format!(" -> {}", ty(&v["sig"]["output"]))
            };
            format!("fn({}){out}", inputs.join(", "))
        }
        "infer" => "_".into(),
        "pat" => ty(&v["type"]),
        other => other.to_string(),
    }
}
