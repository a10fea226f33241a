//! Conformance against the oracle data generated from the author's TypeScript engine
//! (`../shared/oracle` beside the workspace, found through `test_support`). Where the oracle is
//! known to be wrong (flagged entries, spec §9.16) the expectation is the oracle's
//! answer minus the flagged moves; see docs/cescacs-rules-decisions.md.

use cescacs_rules::an::{AnStyle, MoveText};
use cescacs_rules::{Game, Letters, PieceKind, Position, SideCastling, compat, perft};
use serde_json::Value;
use std::path::PathBuf;

/// An oracle file of the shared reference data (`../shared/oracle`); a missing file
/// fails the test loudly (test_support), never a silent fallback.
fn data_file(name: &str) -> PathBuf {
    test_support::shared(&format!("oracle/{name}"))
}

fn corpus_file(name: &str) -> PathBuf {
    test_support::shared(&format!("corpus/cescacs-real/{name}"))
}

fn jsonl(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(data_file(name)).expect("oracle file readable");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Canonical comparable form of any TLPD the oracle or we write: read it tolerantly
/// and write the seed form. This maps the program's castling field (`rkr`, `-`), its
/// en-passant field (`P@E9[E11]`) and its scornful field (`G15@F14`, also written
/// for an own facing pawn, which carries no right) onto the seed's forms.
fn normalise(tlpd: &str) -> String {
    cescacs_tlpd::write(&cescacs_tlpd::parse(tlpd).expect("oracle TLPD parses"))
}

/// Whether the side to move in `after` is checked by an Elephant's two-step, which
/// the program does not see (spec §9.16.1).
fn elephant_check(after: &Position) -> bool {
    after.checkers().iter().any(|&c| {
        after
            .piece_at(c)
            .is_some_and(|p| p.kind == PieceKind::Elephant)
            && !c.is_adjacent(after.king(after.side_to_move()))
    })
}

/// The oracle's move string for `m`: ours, without the check marker when the only
/// check comes from an Elephant the program cannot see.
fn oracle_view(pos: &Position, m: cescacs_rules::Move) -> String {
    let s = pos.move_to_an_with(m, &Letters::default(), AnStyle::PROGRAM);
    let after = pos.after(m);
    if after.checkers().len() == 1 && elephant_check(&after) && !s.ends_with('#') {
        s.trim_end_matches(['+', '∞', '^']).to_string()
    } else {
        s
    }
}

/// Entries (line index, field, our value, oracle value) whose perft differs although
/// the depth-1 move sets agree, traced down to the differing leaf positions
/// (docs/cescacs-rules-decisions.md §2.1): #116 the program misses an en-passant
/// capture of the checking pawn (spec §9.16.2); #189 it lets the King step back along
/// the line of the second of two line checkers; #123 and #153 its pins are those of
/// the position before the King's move. Ours are the spec's numbers; the emulation
/// must give the oracle's.
const TRACED_PERFT_DIFFERENCES: [(usize, &str, u64, u64); 4] = [
    (116, "perft3", 146_666, 146_665),
    (123, "perft3", 47_419, 47_424),
    (153, "perft3", 31_111, 31_116),
    (189, "perft2", 8_353, 8_354),
];

fn program_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| oracle_view(pos, m))
        .collect();
    v.sort();
    v
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn perft_of_the_initial_position_to_depth_3() {
    let p = Position::initial();
    assert_eq!(perft(&p, 1), 68);
    assert_eq!(perft(&p, 2), 4_612);
    assert_eq!(perft(&p, 3), 340_385);
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(data_file("perft.json")).unwrap()).unwrap();
    let letters = Letters::default();
    let mut ours: Vec<(String, u64)> = cescacs_rules::divide(&p, 3)
        .into_iter()
        .map(|(m, n)| (p.move_to_an_with(m, &letters, AnStyle::PROGRAM), n))
        .collect();
    ours.sort();
    let theirs: Vec<(String, u64)> = json["depths"]["3"]["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e[0].as_str().unwrap().to_string(), e[1].as_u64().unwrap()))
        .collect();
    assert_eq!(ours, theirs);
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn every_oracle_position_has_the_oracle_move_set() {
    let mut failures = Vec::new();
    let mut explained = 0;
    let mut traced = 0;
    let entries = jsonl("positions.jsonl");
    assert!(entries.len() >= 250);
    for (i, e) in entries.iter().enumerate() {
        let tlpd = e["tlpd"].as_str().unwrap();
        let pos = cescacs_tlpd::parse(tlpd).unwrap_or_else(|err| panic!("{tlpd}: {err}"));
        assert_eq!(
            normalise(&cescacs_tlpd::write(&pos)),
            cescacs_tlpd::write(&pos)
        );
        let flagged = strings(&e["impl_moves_leaving_king_attacked"]);
        let no_check_seen = e["attacked_but_no_check_seen"].as_bool().unwrap_or(false);
        let buggy = !flagged.is_empty() || no_check_seen || e.get("perft_error").is_some();
        let expected: Vec<String> = strings(&e["moves"])
            .into_iter()
            .filter(|m| !flagged.contains(m))
            .collect();
        let ours = program_moves(&pos);
        if ours != expected {
            let missing: Vec<_> = expected.iter().filter(|m| !ours.contains(m)).collect();
            let extra: Vec<_> = ours.iter().filter(|m| !expected.contains(m)).collect();
            failures.push(format!(
                "#{i} {tlpd}\n  missing {missing:?}\n  extra {extra:?}"
            ));
            continue;
        }
        let in_check = e["in_check"].as_str().is_some_and(|s| !s.is_empty());
        if !no_check_seen && pos.is_check() != in_check {
            failures.push(format!(
                "#{i} {tlpd}: in check {} vs oracle {in_check}",
                pos.is_check()
            ));
        }
        for (key, depth) in [("perft2", 2), ("perft3", 3)] {
            if let Some(n) = e.get(key).and_then(Value::as_u64) {
                let ours = perft(&pos, depth);
                if ours == n || (buggy && ours < n) {
                    continue;
                }
                // Deeper in the tree the program's deviations (the Elephant's two-step,
                // spec §9.16.1; pinned pieces not covering cells against a King move;
                // no King-safety test after castling, §9.16.4) change the count;
                // emulating them must reproduce the oracle.
                compat::set_emulate_author_program(true);
                let emulated = perft(&pos, depth);
                compat::set_emulate_author_program(false);
                if let Some(t) = TRACED_PERFT_DIFFERENCES
                    .iter()
                    .find(|t| (t.0, t.1) == (i, key))
                {
                    traced += 1;
                    if (ours, n) != (t.2, t.3) {
                        failures.push(format!(
                            "#{i} {key}: ours {ours}, oracle {n}; traced values {} / {}",
                            t.2, t.3
                        ));
                    }
                }
                if emulated == n {
                    explained += 1;
                } else {
                    failures.push(format!(
                        "#{i} {tlpd}: {key} {ours} (program emulation {emulated}) vs oracle {n}"
                    ));
                }
            }
        }
    }
    eprintln!("perft differences explained by the program emulation: {explained}");
    assert_eq!(explained, 22);
    assert_eq!(traced, TRACED_PERFT_DIFFERENCES.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn every_oracle_game_is_replayed_move_by_move() {
    let games = jsonl("games.jsonl");
    assert!(games.len() >= 330);
    let letters = Letters::default();
    let mut failures = Vec::new();
    let mut plies = 0;
    let mut regained = 0;
    for g in &games {
        let file = g["file"].as_str().unwrap_or("?");
        let tlpds = strings(&g["tlpds"]);
        let moves = strings(&g["moves"]);
        assert_eq!(tlpds.len(), moves.len() + 1, "{file}");
        let flagged_next: Vec<String> = g["impl_flags"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["tlpd"].as_str().map(String::from))
            .collect();
        for (i, listed) in moves.iter().enumerate() {
            plies += 1;
            let pos = cescacs_tlpd::parse(&tlpds[i]).unwrap();
            let next = cescacs_tlpd::parse(&tlpds[i + 1]).unwrap();
            // The program sometimes writes a castling right that the previous TLPD had
            // already lost (a rook back on its home cell after a reload). Rights are
            // never regained, so intersect with the previous position's rights.
            let next = {
                let (a, b) = (pos.castling_rights(), next.castling_rights());
                let meet = |x: SideCastling, y: SideCastling| SideCastling {
                    king: x.king && y.king,
                    queen_rook: x.queen_rook && y.queen_rook,
                    king_rook: x.king_rook && y.king_rook,
                };
                if meet(a.white, b.white) != b.white || meet(a.black, b.black) != b.black {
                    regained += 1;
                }
                let mut s = next.to_setup();
                s.castling.white = meet(a.white, b.white);
                s.castling.black = meet(a.black, b.black);
                Position::from_setup(s).unwrap()
            };
            let connecting: Vec<_> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| pos.after(m) == next)
                .collect();
            if connecting.len() != 1 {
                failures.push(format!(
                    "{file} ply {}: {} connecting moves for {listed}",
                    i + 1,
                    connecting.len()
                ));
                continue;
            }
            let m = connecting[0];
            assert_eq!(
                cescacs_tlpd::write(&pos.after(m)),
                cescacs_tlpd::write(&next)
            );
            let written = oracle_view(&pos, m);
            // When the oracle flags the position reached, its check detection failed
            // there (an Elephant check it does not see) and it may have written no marker.
            let unmarked = written.trim_end_matches(['+', '∞', '^']);
            let excused = flagged_next.contains(&tlpds[i + 1]) && unmarked == listed;
            if &written != listed && !excused {
                failures.push(format!(
                    "{file} ply {}: wrote {written}, oracle {listed}",
                    i + 1
                ));
            }
            // And the token resolves back to the same move.
            let t = MoveText::parse(listed, &letters).unwrap();
            if pos.resolve(&t).map(|r| r.mv) != Ok(m) {
                failures.push(format!("{file} ply {}: {listed} does not resolve", i + 1));
            }
        }
        assert_eq!(
            normalise(g["final_tlpd"].as_str().unwrap()),
            normalise(tlpds.last().unwrap())
        );
    }
    assert!(plies > 25_000);
    eprintln!("{plies} plies; castling rights regained by the program: {regained}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Move tokens of a CTL-PGN file: tags, comments, move numbers, results and end
/// indicators removed (full PGN parsing is the ctl-pgn crate's job).
fn move_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            continue;
        }
        let mut clean = String::new();
        for c in t.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                _ if !in_comment => clean.push(c),
                _ => {}
            }
        }
        for tok in clean.split([' ', ',', '\t']) {
            let tok = tok.trim_end_matches(':');
            let is_number = tok.ends_with('.') || tok.ends_with('?');
            let skip = tok.is_empty()
                || (is_number && tok[..tok.len() - 1].bytes().all(|b| b.is_ascii_digit()))
                || matches!(
                    tok,
                    "…" | "..." | "3-0" | "2-1" | "1-1" | "1-2" | "0-3" | "*"
                );
            if !skip {
                out.push(tok.to_string());
            }
        }
    }
    out
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn the_real_games_replay_without_violations() {
    let replay: Value = serde_json::from_str(
        &std::fs::read_to_string(data_file("real-games-replay.json")).unwrap(),
    )
    .unwrap();
    let letters = Letters::default();
    let mut checked = 0;
    for name in ["2020-07-20", "2022-08-14.1", "2022-08-14.2", "2023-09-08"] {
        let file = format!("{name}.ctl-pgn");
        let text = std::fs::read_to_string(corpus_file(&file)).unwrap();
        let expected = replay
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["file"] == file.as_str())
            .unwrap_or_else(|| panic!("{file} in real-games-replay.json"));
        let plies = expected["plies"].as_array().unwrap();
        let mut game = Game::new(Position::initial());
        let tokens = move_tokens(&text);
        assert_eq!(
            tokens.len() as u64,
            expected["plies_replayed"].as_u64().unwrap()
        );
        for (i, tok) in tokens.iter().enumerate() {
            let t = MoveText::parse(tok, &letters).unwrap_or_else(|e| panic!("{file} {tok}: {e}"));
            let r = game
                .position()
                .resolve(&t)
                .unwrap_or_else(|e| panic!("{file} ply {}: {tok}: {e}", i + 1));
            assert!(r.warnings.is_empty(), "{file} {tok}: {:?}", r.warnings);
            game.play(r.mv).unwrap();
            let tlpd = cescacs_tlpd::write(game.position());
            assert_eq!(
                tlpd,
                normalise(plies[i]["tlpd"].as_str().unwrap()),
                "{file} ply {}",
                i + 1
            );
            checked += 1;
        }
        if name == "2020-07-20" || name == "2022-08-14.2" {
            assert_eq!(
                cescacs_tlpd::write(game.position()),
                "/28:v/25:kDnr/24:p1jep/23:4pp/22:1N2p2/21:2e1p3/20:2pd3/13:2j5/9:4J3/8:5j1/7:2N2P2/6:2P1P2/5:PPR3/4:PE1EP/3:R3/2:K2/ b -- - 2 35"
            );
            assert_eq!(game.result().as_str(), "3-0");
        }
        if name == "2023-09-08" {
            assert_eq!(game.result().as_str(), "0-3");
        }
    }
    assert!(checked > 200);
}

/// All 7 real games of the replay file (3 of them are not in the corpus directory),
/// replayed from the move strings as written in the files.
#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn all_seven_replayed_real_games_match_move_by_move() {
    let replay: Value = serde_json::from_str(
        &std::fs::read_to_string(data_file("real-games-replay.json")).unwrap(),
    )
    .unwrap();
    let letters = Letters::default();
    let games = replay.as_array().unwrap();
    assert_eq!(games.len(), 7);
    for g in games {
        let file = g["file"].as_str().unwrap();
        let mut game = Game::new(Position::initial());
        for ply in g["plies"].as_array().unwrap() {
            let tok = ply["file"].as_str().unwrap();
            let t = MoveText::parse(tok, &letters).unwrap_or_else(|e| panic!("{file} {tok}: {e}"));
            let r = game
                .position()
                .resolve(&t)
                .unwrap_or_else(|e| panic!("{file} {tok}: {e}"));
            assert!(r.warnings.is_empty(), "{file} {tok}: {:?}", r.warnings);
            game.play(r.mv).unwrap();
            assert_eq!(
                cescacs_tlpd::write(game.position()),
                normalise(ply["tlpd"].as_str().unwrap()),
                "{file} after {tok}"
            );
        }
        assert_eq!(
            game.result().as_str(),
            g["final_state"].as_str().unwrap(),
            "{file}"
        );
        if file == "2023-09-17.ctl-pgn" {
            // Spec appendix B: after 61... DX6-F0#.
            assert_eq!(
                cescacs_tlpd::write(game.position()),
                "/27:k1/25:1n2/24:3n1/23:3eD1/22:4J2/21:3e4/19:1p1j4/18:1p5/17:2p5/16:2e4/12:2P4/11:5P2/10:4P2/9:2j5/8:5P1/7:5G2/5:Pg1E2/4:PE1E1/3:2N1/2:1K1/0:d/ w -- - 4 62"
            );
        }
    }
}
