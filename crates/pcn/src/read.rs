//! Second pass: the raw tree to the typed model, with exact JSON paths in errors.

use crate::board::{Board, Coord};
use crate::cache::{self, Warning};
use crate::error::{JsonPath, ReadError, Reason};
use crate::model::{Action, CaptureRecord, Game, Move, Options, SideCache, Status, Verb};
use crate::piece::Piece;
use crate::raw::{self, Raw};

type R<T> = Result<T, ReadError>;

/// Reads a seed-edition PCN document from JSON text.
pub fn from_str(text: &str) -> Result<Game, ReadError> {
    from_slice(text.as_bytes())
}

/// Reads a seed-edition PCN document from bytes. Invalid UTF-8 is a syntax error at
/// the path of the string that holds it.
///
/// Derived data (`...cache` and its parts) that cannot be read is dropped silently;
/// [`from_slice_with_warnings`] says what was dropped.
pub fn from_slice(bytes: &[u8]) -> Result<Game, ReadError> {
    from_slice_with_warnings(bytes).map(|(g, _)| g)
}

/// [`from_slice`], plus a warning for every derived value (`...cache` and its parts)
/// that was abridged or malformed and therefore dropped. Compare the
/// cache that was kept with the replay through [`crate::check_cache`].
pub fn from_slice_with_warnings(bytes: &[u8]) -> Result<(Game, Vec<Warning>), ReadError> {
    let raw = raw::parse(bytes)?;
    let mut warnings = Vec::new();
    let g = game_with(&raw, &mut warnings)?;
    Ok((g, warnings))
}

/// [`from_slice_many`] with the warnings of [`from_slice_with_warnings`] for each
/// document.
#[allow(clippy::type_complexity)]
pub fn from_slice_many_with_warnings(
    bytes: &[u8],
) -> Result<Vec<Result<(Game, Vec<Warning>), ReadError>>, ReadError> {
    let one = |r: &Raw| {
        let mut w = Vec::new();
        game_with(r, &mut w).map(|g| (g, w))
    };
    Ok(match raw::parse(bytes)? {
        Raw::Arr(items) => items.iter().map(one).collect(),
        other => vec![one(&other)],
    })
}

/// Reads one JSON value that is either a document or an array of documents (what a
/// converter writes for several games). The outer error is about the text (syntax,
/// duplicate keys: the path then starts with the array index); each inner result is
/// one document, its paths relative to that document.
pub fn from_slice_many(bytes: &[u8]) -> Result<Vec<Result<Game, ReadError>>, ReadError> {
    Ok(match raw::parse(bytes)? {
        Raw::Arr(items) => items.iter().map(game).collect(),
        one => vec![game(&one)],
    })
}

/// Reads a document already parsed into a `serde_json::Value` (duplicate keys cannot be
/// detected any more at that point).
pub fn from_value(value: &serde_json::Value) -> Result<Game, ReadError> {
    game(&from_json_value(value))
}

fn from_json_value(v: &serde_json::Value) -> Raw {
    use serde_json::Value as V;
    match v {
        V::Null => Raw::Null,
        V::Bool(b) => Raw::Bool(*b),
        V::Number(n) => Raw::Num(n.clone()),
        V::String(s) => Raw::Str(s.clone()),
        V::Array(a) => Raw::Arr(a.iter().map(from_json_value).collect()),
        V::Object(o) => Raw::Obj(
            o.iter()
                .map(|(k, v)| (k.clone(), from_json_value(v)))
                .collect(),
        ),
    }
}

fn err<T>(path: &JsonPath, reason: Reason) -> R<T> {
    Err(ReadError::new(path, reason))
}

fn type_err<T>(path: &JsonPath, expected: &'static str, found: &Raw) -> R<T> {
    err(
        path,
        Reason::Type {
            expected,
            found: found.kind(),
        },
    )
}

/// Keys of later editions, so that such a document is refused as an edition mismatch
/// rather than as a pile of unknown keys.
fn later_edition(key: &str) -> Option<&'static str> {
    Some(match key {
        "state" | "version" => "2014",
        "variant" => "2015",
        "startpos" => "2014/2020",
        "sides" => "2014/2025",
        "moves" => "2014/2020/2025",
        "indexes" | "topside" | "bottomside" | "is_turn_to_topside" | "is_in_check"
        | "is_topside_better" | "event" | "location" | "href" | "name" | "round" | "started_on"
        | "finished_at" => "2020",
        "setup" | "status" | "winner" | "meta" => "2025",
        _ => return None,
    })
}

const SEED_KEYS: [&str; 8] = [
    "started_at",
    "topside_player",
    "bottomside_player",
    "over?",
    "...result?",
    "starting_position",
    "previous_moves",
    "...cache",
];

pub(crate) fn is_extension_key(k: &str) -> bool {
    k.len() > 3 && k.starts_with("...") && !SEED_KEYS.contains(&k)
}

pub(crate) fn game(raw: &Raw) -> R<Game> {
    game_with(raw, &mut Vec::new())
}

fn game_with(raw: &Raw, warnings: &mut Vec<Warning>) -> R<Game> {
    let mut path = JsonPath::root();
    let Raw::Obj(entries) = raw else {
        return type_err(&path, "an object (a PCN game)", raw);
    };
    for (k, _) in entries {
        if SEED_KEYS.contains(&k.as_str()) || is_extension_key(k) {
            continue;
        }
        path.push_key(k);
        let reason = match later_edition(k) {
            Some(edition) => Reason::UnsupportedEdition {
                key: k.clone(),
                edition,
            },
            None => Reason::UnknownKey(k.clone()),
        };
        return err(&path, reason);
    }
    let Some((_, sp)) = entries.iter().find(|(k, _)| k == "starting_position") else {
        return err(&path, Reason::MissingKey("starting_position"));
    };
    path.push_key("starting_position");
    let starting_position = board(sp, &mut path)?;
    path.pop();
    let shape = starting_position.shape().to_vec();

    let mut g = Game::new(starting_position);
    let mut over = None;
    let mut result = None;
    let mut moves = None;
    for (k, v) in entries {
        path.push_key(k);
        match k.as_str() {
            "started_at" => {
                let s = string(v, &path)?;
                if !is_date_time(&s) {
                    return err(&path, Reason::BadTimestamp(s));
                }
                g.started_at = Some(s);
            }
            "topside_player" => g.topside_player = Some(string(v, &path)?),
            "bottomside_player" => g.bottomside_player = Some(string(v, &path)?),
            "over?" => match v {
                Raw::Bool(b) => over = Some(*b),
                _ => return type_err(&path, "a boolean", v),
            },
            // Unlike the cache, `...result?` is not derived data: read as absent it would
            // turn a win into a draw (`over?` true, no result), so it stays strict.
            "...result?" => match v {
                Raw::Bool(b) => result = Some(*b),
                Raw::Null => {}
                _ => return type_err(&path, "a boolean or null", v),
            },
            "starting_position" => {}
            "previous_moves" => moves = Some(move_list(v, &mut path, &shape)?),
            "...cache" => g.cache = cache::read(v, &mut path, &shape, warnings),
            _ => {
                g.extensions.insert(k.clone(), v.to_value());
            }
        }
        path.pop();
    }
    let Some(over) = over else {
        return err(&path, Reason::MissingKey("over?"));
    };
    let Some(moves) = moves else {
        return err(&path, Reason::MissingKey("previous_moves"));
    };
    g.status = Status::from_keys(over, result);
    g.previous_moves = moves;
    Ok(g)
}

fn string(v: &Raw, path: &JsonPath) -> R<String> {
    match v {
        Raw::Str(s) => Ok(s.clone()),
        _ => type_err(path, "a string", v),
    }
}

/// Whether `s` is a `started_at` the reader accepts: `YYYY-MM-DDThh:mm:ss[.f+][Z|±hh:mm]`.
/// The offset is optional because Part C writes PGN dates without a known zone as
/// local time; everything else is checked strictly.
///
/// ```
/// assert!(pcn::is_date_time("2024-01-02T10:00:00Z"));
/// assert!(!pcn::is_date_time("2024-13-02T10:00:00"));
/// ```
pub fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>, lo: u32, hi: u32| -> bool {
        b.get(r.clone())
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
            && s[r].parse::<u32>().is_ok_and(|n| (lo..=hi).contains(&n))
    };
    let fixed = b.len() >= 19
        && num(0..4, 0, 9999)
        && b[4] == b'-'
        && num(5..7, 1, 12)
        && b[7] == b'-'
        && num(8..10, 1, 31)
        && (b[10] == b'T' || b[10] == b't')
        && num(11..13, 0, 23)
        && b[13] == b':'
        && num(14..16, 0, 59)
        && b[16] == b':'
        && num(17..19, 0, 60);
    if !fixed {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match &b[i..] {
        [] | [b'Z'] | [b'z'] => true,
        [b'+' | b'-', ..] if b.len() - i == 6 => {
            num(i + 1..i + 3, 0, 23) && b[i + 3] == b':' && num(i + 4..i + 6, 0, 59)
        }
        _ => false,
    }
}

fn piece(v: &Raw, path: &JsonPath) -> R<Piece> {
    match v {
        Raw::Str(s) => s.parse().map_err(|why| {
            ReadError::new(
                path,
                Reason::BadPiece {
                    value: s.clone(),
                    why,
                },
            )
        }),
        _ => type_err(path, "a piece string", v),
    }
}

pub(crate) fn board(v: &Raw, path: &mut JsonPath) -> R<Board> {
    // The shape is read down the first elements; every other branch must match it.
    let mut shape = Vec::new();
    let mut cur = v;
    while let Raw::Arr(items) = cur {
        match items.first() {
            Some(first) => {
                shape.push(items.len());
                cur = first;
            }
            None => {
                for _ in 0..shape.len() {
                    path.push_index(0);
                }
                let e = ReadError::new(path, Reason::EmptyBoard);
                for _ in 0..shape.len() {
                    path.pop();
                }
                return Err(e);
            }
        }
    }
    if shape.is_empty() {
        return type_err(path, "a board (nested arrays of squares)", v);
    }
    let mut squares = Vec::new();
    fill(v, 0, &shape, path, &mut squares)?;
    Ok(Board::from_parts(shape, squares))
}

fn fill(
    v: &Raw,
    depth: usize,
    shape: &[usize],
    path: &mut JsonPath,
    out: &mut Vec<Option<Piece>>,
) -> R<()> {
    if depth == shape.len() {
        return match v {
            Raw::Null => {
                out.push(None);
                Ok(())
            }
            Raw::Str(_) => {
                out.push(Some(piece(v, path)?));
                Ok(())
            }
            _ => type_err(path, "a square (null or a piece string)", v),
        };
    }
    let Raw::Arr(items) = v else {
        return type_err(path, "an array (a board level, like its siblings)", v);
    };
    if items.len() != shape[depth] {
        return err(
            path,
            Reason::Ragged {
                expected: shape[depth],
                found: items.len(),
            },
        );
    }
    for (i, item) in items.iter().enumerate() {
        path.push_index(i);
        fill(item, depth + 1, shape, path, out)?;
        path.pop();
    }
    Ok(())
}

fn index(v: &Raw, path: &JsonPath) -> R<usize> {
    match v {
        Raw::Num(n) => match n.as_u64().and_then(|u| usize::try_from(u).ok()) {
            Some(u) => Ok(u),
            None => err(path, Reason::NotAnIndex(n.to_string())),
        },
        _ => type_err(path, "an integer index", v),
    }
}

fn coord(v: &Raw, path: &mut JsonPath, shape: &[usize]) -> R<Coord> {
    let c = match v {
        Raw::Num(_) => Coord::Flat(index(v, path)?),
        Raw::Arr(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                path.push_index(i);
                let x = index(item, path)?;
                if let Some(&extent) = shape.get(i).filter(|_| items.len() == shape.len())
                    && x >= extent
                {
                    return err(
                        path,
                        Reason::OffBoard {
                            index: x as u64,
                            dimension: i,
                            extent,
                        },
                    );
                }
                path.pop();
                out.push(x);
            }
            Coord::Cartesian(out)
        }
        Raw::Str(_) => Coord::Piece(piece(v, path)?),
        _ => {
            return type_err(
                path,
                "a coordinate (array of indices, flattened index or piece name)",
                v,
            );
        }
    };
    Board::check_coord(shape, &c).map_err(|r| ReadError::new(path, r))?;
    Ok(c)
}

fn action(v: &Raw, path: &mut JsonPath, shape: &[usize]) -> R<Action> {
    let Raw::Arr(items) = v else {
        return type_err(path, "an action [subject, verb, object, options?]", v);
    };
    if !(3..=4).contains(&items.len()) {
        return err(path, Reason::ActionArity(items.len()));
    }
    path.push_index(1);
    let verb = match &items[1] {
        Raw::Str(s) => s
            .parse::<Verb>()
            .map_err(|()| ReadError::new(path, Reason::UnknownVerb(s.clone())))?,
        other => return type_err(path, "a verb string", other),
    };
    path.pop();

    path.push_index(0);
    let subject = coord(&items[0], path, shape)?;
    if verb == Verb::Drop && subject.is_square() {
        return err(
            path,
            Reason::WrongCoordinateForm {
                role: "subject",
                verb: verb.as_str(),
                must: "a piece name (the piece in hand)",
            },
        );
    }
    path.pop();

    path.push_index(2);
    let object = coord(&items[2], path, shape)?;
    if matches!(verb, Verb::Drop | Verb::Shift | Verb::Land) && !object.is_square() {
        return err(
            path,
            Reason::WrongCoordinateForm {
                role: "object",
                verb: verb.as_str(),
                must: "an empty square (Cartesian or flattened), not a piece name",
            },
        );
    }
    path.pop();

    let options = match items.get(3) {
        None => None,
        Some(o) => {
            path.push_index(3);
            let opts = options(o, path)?;
            path.pop();
            Some(opts)
        }
    };
    Ok(Action {
        subject,
        verb,
        object,
        options,
    })
}

fn options(v: &Raw, path: &mut JsonPath) -> R<Options> {
    let Raw::Obj(entries) = v else {
        return type_err(path, "an options object", v);
    };
    let mut o = Options::default();
    for (k, val) in entries {
        path.push_key(k);
        if k == "promotion" {
            o.promotion = Some(piece(val, path)?);
        } else if k.len() > 3 && k.starts_with("...") {
            o.extensions.insert(k.clone(), val.to_value());
        } else {
            return err(path, Reason::UnknownOption(k.clone()));
        }
        path.pop();
    }
    Ok(o)
}

pub(crate) fn move_list(v: &Raw, path: &mut JsonPath, shape: &[usize]) -> R<Vec<Move>> {
    let Raw::Arr(items) = v else {
        return type_err(path, "an array of moves", v);
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, m) in items.iter().enumerate() {
        path.push_index(i);
        let Raw::Arr(actions) = m else {
            return type_err(path, "a move (an array of actions)", m);
        };
        if actions.is_empty() {
            return err(path, Reason::EmptyMove);
        }
        let mut mv = Vec::with_capacity(actions.len());
        for (j, a) in actions.iter().enumerate() {
            path.push_index(j);
            mv.push(action(a, path, shape)?);
            path.pop();
        }
        out.push(Move(mv));
        path.pop();
    }
    Ok(out)
}

pub(crate) fn side_cache(v: &Raw, path: &mut JsonPath, shape: &[usize]) -> R<SideCache> {
    let Raw::Obj(entries) = v else {
        return type_err(path, "an object (a side's cache)", v);
    };
    let mut s = SideCache::default();
    for (k, val) in entries {
        path.push_key(k);
        match k.as_str() {
            "dropable_pieces" => {
                let Raw::Arr(items) = val else {
                    return type_err(path, "an array of piece strings", val);
                };
                let mut out = Vec::new();
                for (i, p) in items.iter().enumerate() {
                    path.push_index(i);
                    out.push(piece(p, path)?);
                    path.pop();
                }
                s.dropable_pieces = Some(out);
            }
            "captures" => {
                let Raw::Arr(items) = val else {
                    return type_err(path, "an array of {piece, from} objects", val);
                };
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    path.push_index(i);
                    out.push(capture_record(item, path, shape)?);
                    path.pop();
                }
                s.captures = Some(out);
            }
            _ => {
                s.other.insert(k.clone(), val.to_value());
            }
        }
        path.pop();
    }
    Ok(s)
}

fn capture_record(v: &Raw, path: &mut JsonPath, shape: &[usize]) -> R<CaptureRecord> {
    let Raw::Obj(entries) = v else {
        return type_err(path, "an object {piece, from}", v);
    };
    let mut p = None;
    let mut from = None;
    for (k, val) in entries {
        path.push_key(k);
        match k.as_str() {
            "piece" => p = Some(piece(val, path)?),
            "from" => from = Some(coord(val, path, shape)?),
            _ => return err(path, Reason::UnknownKey(k.clone())),
        }
        path.pop();
    }
    match (p, from) {
        (Some(piece), Some(from)) => Ok(CaptureRecord { piece, from }),
        (None, _) => err(path, Reason::MissingKey("piece")),
        (_, None) => err(path, Reason::MissingKey("from")),
    }
}

/// Checks a game built in memory against the rules a reader applies (time stamp,
/// coordinates on the board and of the right form for their verb, option and
/// extension keys, cache shape), so a writer never emits what a reader refuses.
///
/// Walks the model once, in time linear in its size; nothing is serialised. The error
/// path is the one a reader would report for the written document.
pub fn validate(g: &Game) -> Result<(), ReadError> {
    let mut path = JsonPath::root();
    if let Some(s) = &g.started_at
        && !is_date_time(s)
    {
        path.push_key("started_at");
        return err(&path, Reason::BadTimestamp(s.clone()));
    }
    let shape = g.starting_position.shape();
    path.push_key("previous_moves");
    check_moves(&g.previous_moves, &mut path, shape)?;
    path.pop();
    if let Some(c) = &g.cache {
        path.push_key("...cache");
        if let Some(b) = &c.current_position
            && b.shape() != shape
        {
            path.push_key("current_position");
            return err(
                &path,
                Reason::ShapeMismatch {
                    expected: shape.to_vec(),
                    found: b.shape().to_vec(),
                },
            );
        }
        // A key of `other` equal to a field's key would be written twice.
        const CACHE_KEYS: [&str; 4] = [
            "current_position",
            "possible_moves",
            "topside",
            "bottomside",
        ];
        const SIDE_KEYS: [&str; 2] = ["dropable_pieces", "captures"];
        let sides = [&c.topside, &c.bottomside];
        let dup = c
            .other
            .keys()
            .find(|k| CACHE_KEYS.contains(&k.as_str()))
            .or_else(|| {
                sides
                    .iter()
                    .filter_map(|s| s.as_ref())
                    .flat_map(|s| s.other.keys())
                    .find(|k| SIDE_KEYS.contains(&k.as_str()))
            });
        if let Some(k) = dup {
            return err(&path, Reason::DuplicateKey(k.clone()));
        }
        if let Some(m) = &c.possible_moves {
            path.push_key("possible_moves");
            check_moves(m, &mut path, shape)?;
            path.pop();
        }
        for (key, side) in [("topside", &c.topside), ("bottomside", &c.bottomside)] {
            let Some(caps) = side.as_ref().and_then(|s| s.captures.as_ref()) else {
                continue;
            };
            path.push_key(key);
            path.push_key("captures");
            for (i, r) in caps.iter().enumerate() {
                path.push_index(i);
                path.push_key("from");
                Board::check_coord(shape, &r.from).map_err(|e| ReadError::new(&path, e))?;
                path.pop();
                path.pop();
            }
            path.pop();
            path.pop();
        }
        path.pop();
    }
    for k in g.extensions.keys() {
        if !is_extension_key(k) {
            path.push_key(k);
            return err(&path, Reason::BadExtensionKey(k.clone()));
        }
    }
    Ok(())
}

fn check_moves(moves: &[Move], path: &mut JsonPath, shape: &[usize]) -> R<()> {
    for (i, m) in moves.iter().enumerate() {
        path.push_index(i);
        if m.0.is_empty() {
            return err(path, Reason::EmptyMove);
        }
        for (j, a) in m.0.iter().enumerate() {
            path.push_index(j);
            check_action(a, path, shape)?;
            path.pop();
        }
        path.pop();
    }
    Ok(())
}

fn check_action(a: &Action, path: &mut JsonPath, shape: &[usize]) -> R<()> {
    path.push_index(0);
    Board::check_coord(shape, &a.subject).map_err(|r| ReadError::new(path, r))?;
    if a.verb == Verb::Drop && a.subject.is_square() {
        return err(
            path,
            Reason::WrongCoordinateForm {
                role: "subject",
                verb: a.verb.as_str(),
                must: "a piece name (the piece in hand)",
            },
        );
    }
    path.pop();
    path.push_index(2);
    Board::check_coord(shape, &a.object).map_err(|r| ReadError::new(path, r))?;
    if matches!(a.verb, Verb::Drop | Verb::Shift | Verb::Land) && !a.object.is_square() {
        return err(
            path,
            Reason::WrongCoordinateForm {
                role: "object",
                verb: a.verb.as_str(),
                must: "an empty square (Cartesian or flattened), not a piece name",
            },
        );
    }
    path.pop();
    if let Some(o) = &a.options {
        path.push_index(3);
        for k in o.extensions.keys() {
            // `promotion` among the extensions would be written twice.
            if !(k.len() > 3 && k.starts_with("...")) {
                path.push_key(k);
                return err(path, Reason::UnknownOption(k.clone()));
            }
        }
        path.pop();
    }
    Ok(())
}
