//! Readers never panic: arbitrary strings and systematic mutations of valid TLPDs
//! and move tokens go through the parsers (and, for tokens, the resolver).

use cescacs_rules::an::MoveText;
use cescacs_rules::{Letters, Position};
use proptest::prelude::*;

const SAMPLES: [&str; 4] = [
    "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1",
    "/27:1k/15:4p3/14:3P3/1:1K/ b -- F14 0 30",
    "/26:1P1/24:4k/11:2r5/6:3J3/4:2J2/3:RNNR/2:GJG/1:DK/0:V/ w -- - 0 40",
    "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr P@E9,11[E13] 0 1",
];

const ALPHABET: &[char] = &[
    '/', ':', '.', ' ', '-', '@', '[', ']', ',', '?', '0', '1', '2', '8', '9', 'k', 'K', 'p', 'P',
    'r', 'R', 'w', 'b', 'Z', 'J', '×', '∞', '=', '&', '+', '#', '^', 'é',
];

/// Parsing must not panic; whatever parses must write and re-read to itself.
fn check_tlpd(s: &str) {
    if let Ok(p) = cescacs_tlpd::parse(s) {
        let w = cescacs_tlpd::write(&p);
        let again = cescacs_tlpd::parse(&w).expect("written TLPD reads back");
        assert_eq!(cescacs_tlpd::write(&again), w);
        let _ = p.legal_moves();
    }
}

fn check_token(s: &str, pos: &Position) {
    if let Ok(t) = MoveText::parse(s, &Letters::default()) {
        let _ = pos.resolve(&t);
    }
}

#[test]
fn every_single_character_mutation_of_sample_tlpds_is_handled() {
    for sample in SAMPLES {
        let chars: Vec<char> = sample.chars().collect();
        for i in 0..=chars.len() {
            let mut deleted = chars.clone();
            if i < chars.len() {
                deleted.remove(i);
                check_tlpd(&deleted.iter().collect::<String>());
            }
            for &c in ALPHABET {
                let mut replaced = chars.clone();
                if i < chars.len() {
                    replaced[i] = c;
                    check_tlpd(&replaced.iter().collect::<String>());
                }
                let mut inserted = chars.clone();
                inserted.insert(i, c);
                check_tlpd(&inserted.iter().collect::<String>());
            }
        }
    }
}

#[test]
fn every_single_character_mutation_of_move_tokens_is_handled() {
    let pos = Position::initial();
    let letters = Letters::default();
    let mut tokens: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_to_an(m, &letters))
        .collect();
    tokens.extend(
        [
            "KRK-HIOO",
            "F28=R",
            "F12@@G9",
            "EF12×NF14+^",
            "G15@F14",
            "E25-E27=D#",
            "KRR-FEE++",
        ]
        .map(String::from),
    );
    for tok in &tokens {
        let chars: Vec<char> = tok.chars().collect();
        for i in 0..=chars.len() {
            for &c in ALPHABET {
                let mut v = chars.clone();
                v.insert(i, c);
                check_token(&v.iter().collect::<String>(), &pos);
                if i < chars.len() {
                    let mut r = chars.clone();
                    r[i] = c;
                    check_token(&r.iter().collect::<String>(), &pos);
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn arbitrary_tlpd_strings_never_panic(s in "\\PC{0,120}") {
        check_tlpd(&s);
    }

    #[test]
    fn tlpd_like_strings_never_panic(s in "/([0-9]{1,2}[:.][a-zA-Z0-9]{0,9}/){0,6} [wb] [RKrk-]{0,6} [A-Z0-9@\\[\\],P-]{0,12} [0-9?-]{0,3} [0-9?-]{0,3}") {
        check_tlpd(&s);
    }

    #[test]
    fn arbitrary_move_tokens_never_panic(s in "[KDVRGNJEPTAX0-9@×*x=&+#^∞‐–-]{0,14}") {
        check_token(&s, &Position::initial());
    }
}
