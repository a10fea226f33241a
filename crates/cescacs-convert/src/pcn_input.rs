//! PCN input: one JSON document, an array of documents (what PCN output writes), or
//! documents one after another (JSON Lines). Each document is validated, replayed by
//! the rules-free replayer, and turned into the model of the game its board shape
//! names, whose rules engine checks every move again.

use crate::record::{Game, Record};
use crate::{Format, codes, error, warning};
use cescacs_batch::RawGame;

/// Which game a PCN document records, from its board's shape.
fn kind(doc: &pcn::Game) -> Option<crate::GameKind> {
    match doc.starting_position.shape() {
        [169] => Some(crate::GameKind::Cescacs),
        [8, 8] => Some(crate::GameKind::Chess),
        [10, 9] | [9, 10] | [90] => Some(crate::GameKind::Xiangqi),
        _ => None,
    }
}

/// A PCN document (one top-level object, or one element of an array of documents)
/// longer than this many bytes is a located error, not read; the next document is.
/// Reading a document builds a raw JSON tree, then the typed model, then the replay:
/// about 26 bytes of memory per byte of JSON at worst (a board of many empty cells
/// and short moves), so this cap bounds one document's memory to about 110 MiB. A
/// real game is far smaller: a C'escacs game of 20,000 plies written by `--to pcn` is
/// under 1 MiB. Documented in docs/hostile-input.md and docs/pcn.md.
pub const MAX_PCN_DOCUMENT_BYTES: usize = 4 << 20;

pub(crate) fn read(raw: &RawGame) -> Vec<Record> {
    // serde_json finds where each top-level value ends; pcn then reads each value's own
    // bytes, which (unlike a parsed `Value`) still shows a key written twice.
    let mut slices = Vec::new();
    let mut stream =
        serde_json::Deserializer::from_slice(&raw.bytes).into_iter::<serde::de::IgnoredAny>();
    let mut start = 0;
    while let Some(value) = stream.next() {
        if let Err(e) = value {
            return vec![Record::failed(
                Format::Pcn,
                crate::diag(
                    codes::PCN_JSON,
                    crate::Severity::Error,
                    e.line() as u64,
                    e.column() as u64,
                    format!("expected a JSON document: {e}"),
                ),
            )];
        }
        let end = stream.byte_offset();
        slices.push(&raw.bytes[start..end]);
        start = end;
    }
    let several = slices.len() > 1;
    let mut records = Vec::new();
    for (n, bytes) in slices.into_iter().enumerate() {
        let at = if several {
            format!("document {}: ", n + 1)
        } else {
            String::new()
        };
        // An array in one piece comes only from callers holding it in memory (the
        // splitter cuts arrays into their documents): the cap is per document.
        if bytes.len() > MAX_PCN_DOCUMENT_BYTES && !bytes.trim_ascii_start().starts_with(b"[") {
            let mut r = Record::failed(
                Format::Pcn,
                error(
                    codes::PCN_TOO_LARGE,
                    format!(
                        "document of {} bytes, over the PCN cap of {} bytes: not read",
                        bytes.len(),
                        MAX_PCN_DOCUMENT_BYTES
                    ),
                ),
            );
            r.location = at;
            records.push(r);
            continue;
        }
        let docs = match pcn::from_slice_many_with_warnings(bytes) {
            Ok(docs) => docs,
            Err(e) => {
                let mut r = Record::failed(Format::Pcn, error(codes::PCN_INVALID, e.to_string()));
                r.location = at;
                records.push(r);
                continue;
            }
        };
        let in_array = bytes.trim_ascii_start().starts_with(b"[");
        for (i, doc) in docs.into_iter().enumerate() {
            let mut record = document(doc);
            record.location = if in_array {
                format!("{at}[{i}].")
            } else {
                at.clone()
            };
            records.push(record);
        }
    }
    records
}

/// Reads one document of a PCN input.
fn document(doc: Result<(pcn::Game, Vec<pcn::Warning>), pcn::ReadError>) -> Record {
    let (mut doc, mut cache_warnings) = match doc {
        Ok(d) => d,
        Err(e) => return Record::failed(Format::Pcn, error(codes::PCN_INVALID, e.to_string())),
    };
    let end = match pcn::replay(&doc) {
        Ok(end) => end,
        Err(e) => return Record::failed(Format::Pcn, error(codes::PCN_REPLAY, e.to_string())),
    };
    // The cache is derived data: what was dropped or disagrees with the replay is a
    // warning, and a PCN output carries a cache recomputed from the replay, never the
    // stale one.
    cache_warnings.extend(pcn::check_cache(&doc, &end));
    pcn::recompute_cache(&mut doc, &end);
    let mut record = Record::new(Format::Pcn);
    record.diagnostics.extend(
        cache_warnings
            .iter()
            .map(|w| warning(codes::PCN_CACHE, w.to_string())),
    );
    let Some(game_kind) = kind(&doc) else {
        // An unknown board: the document is the game, kept once (not also as
        // `source_pcn`, which would double the largest part of its memory).
        record.game = Some(Game::Pcn(doc));
        return record;
    };
    let decoded = match game_kind {
        crate::GameKind::Cescacs => {
            pcn_convert::cescacs::from_pcn(&doc).map(|(g, w)| (crate::cescacs::from_model(g), w))
        }
        crate::GameKind::Chess => {
            pcn_convert::chess::from_pcn(&doc).map(|(g, w)| (Game::Chess(g), w))
        }
        crate::GameKind::Xiangqi => {
            pcn_convert::xiangqi::from_pcn(&doc).map(|(g, w)| (Game::Xiangqi(g), w))
        }
    };
    match decoded {
        Ok((game, warnings)) => {
            record.game = Some(game);
            record.pcn_warnings = warnings
                .iter()
                .map(|w| warning(codes::PCN_LOSS, w.to_string()))
                .collect();
        }
        Err(e) => record
            .diagnostics
            .push(error(codes::PCN_DECODE, e.to_string())),
    }
    record.source_pcn = Some(doc);
    record
}

/// The tags of a PCN document of an unknown board: its metadata under PGN names.
pub(crate) fn tags(doc: &pcn::Game) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    if let Some(v) = &doc.started_at {
        tags.push(("StartedAt".to_string(), v.clone()));
    }
    if let Some(v) = &doc.bottomside_player {
        tags.push(("Bottomside".to_string(), v.clone()));
    }
    if let Some(v) = &doc.topside_player {
        tags.push(("Topside".to_string(), v.clone()));
    }
    tags
}

/// The moves of a PCN document of an unknown board, each as its JSON text.
pub(crate) fn main_line(doc: &pcn::Game) -> Vec<String> {
    doc.previous_moves
        .iter()
        .map(|m| serde_json::to_string(m).unwrap_or_default())
        .collect()
}
