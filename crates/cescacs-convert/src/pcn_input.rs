//! PCN input: one JSON document, an array of documents (what PCN output writes), or
//! documents one after another (JSON Lines). Each document is validated, replayed by
//! the rules-free replayer, and turned into the model of the game its board shape
//! names, whose rules engine checks every move again.

use crate::record::{Game, Record};
use crate::{Format, error, warning};
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
        let docs = match pcn::from_slice_many(bytes) {
            Ok(docs) => docs,
            Err(e) => {
                let mut r = Record::failed(Format::Pcn, error(e.to_string()));
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
fn document(doc: Result<pcn::Game, pcn::ReadError>) -> Record {
    let doc = match doc {
        Ok(d) => d,
        Err(e) => return Record::failed(Format::Pcn, error(e.to_string())),
    };
    if let Err(e) = pcn::replay(&doc) {
        return Record::failed(Format::Pcn, error(e.to_string()));
    }
    let mut record = Record::new(Format::Pcn);
    let decoded = match kind(&doc) {
        Some(crate::GameKind::Cescacs) => {
            pcn_convert::cescacs::from_pcn(&doc).map(|(g, w)| (crate::cescacs::from_model(g), w))
        }
        Some(crate::GameKind::Chess) => {
            pcn_convert::chess::from_pcn(&doc).map(|(g, w)| (Game::Chess(g), w))
        }
        Some(crate::GameKind::Xiangqi) => {
            pcn_convert::xiangqi::from_pcn(&doc).map(|(g, w)| (Game::Xiangqi(g), w))
        }
        None => Ok((Game::Pcn(doc.clone()), Vec::new())),
    };
    match decoded {
        Ok((game, warnings)) => {
            record.game = Some(game);
            record.pcn_warnings = warnings.iter().map(|w| warning(w.to_string())).collect();
        }
        Err(e) => record.diagnostics.push(error(e.to_string())),
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
