//! The codec's own cases: the seed form byte for byte, redefined letters, the tolerant
//! forms of the author's program and older pages, and located syntax errors.

use cescacs_rules::{Letters, Position};
use cescacs_tlpd::{TlpdError, parse, parse_with, write, write_with};

const INITIAL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";

#[test]
fn initial_position_round_trips_byte_for_byte() {
    assert_eq!(write(&Position::initial()), INITIAL);
    assert_eq!(parse(INITIAL).unwrap(), Position::initial());
}

#[test]
fn redefined_letters() {
    let l = Letters::redefine("A@J, T@R, C@N").unwrap();
    let s = "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1";
    let p = parse_with(s, &l).unwrap();
    assert_eq!(p, Position::initial());
    assert_eq!(write_with(&p, &l), s);
    assert!(parse_with(INITIAL, &l).is_err());
}

#[test]
fn tolerant_forms() {
    let dot = INITIAL.replace(':', ".");
    assert_eq!(parse(&dot).unwrap(), Position::initial());
    let five = INITIAL.trim_end_matches(" 1");
    assert_eq!(parse(five).unwrap().fullmove_number(), None);
    let unknown = INITIAL.replace(" 0 1", " - ?");
    assert_eq!(
        write(&parse(&unknown).unwrap()),
        INITIAL.replace(" 0 1", " 0 ?")
    );
    let additive = INITIAL.replace("22:2pjp2", "22:11pjp11");
    assert_eq!(parse(&additive).unwrap(), Position::initial());
    let short = INITIAL.replace("22:2pjp2", "22:2pjp");
    assert_eq!(parse(&short).unwrap(), Position::initial());
    // The program's en passant forms equal the seed's.
    let seed = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1";
    let ts = seed.replace("E13@9-11", "P@E9,11[E13]");
    assert_eq!(parse(&ts).unwrap(), parse(seed).unwrap());
    assert_eq!(write(&parse(&ts).unwrap()), seed);
    assert_eq!(
        write(&parse(&seed.replace("E13@9-11", "E13@11-9")).unwrap()),
        seed
    );
    let bogus = seed.replace("E13@9-11", "P@E12[E13]");
    assert_eq!(
        write(&parse(&bogus).unwrap()),
        seed.replace("E13@9-11", "-")
    );
    assert!(parse(&seed.replace("E13@9-11", "P@E15[E13]")).is_err());
}

#[test]
fn castling_field_forms() {
    let base = "/27:1k/25:r3/3:R2R/1:1K/ w";
    let rights = |f: &str| parse(&format!("{base} {f} - 0 1")).map(|p| write(&p));
    assert_eq!(rights("RKRrkr").unwrap(), format!("{base} RKRrk - 0 1"));
    assert_eq!(rights("rkr").unwrap(), format!("{base} -rk - 0 1"));
    assert_eq!(rights("RKR").unwrap(), format!("{base} RKR- - 0 1"));
    assert_eq!(rights("-").unwrap(), format!("{base} -- - 0 1"));
    assert_eq!(rights("--").unwrap(), format!("{base} -- - 0 1"));
    assert!(rights("RRK").is_err());
    assert!(rights("kRK").is_err());
}

#[test]
fn scornful_field_forms() {
    let s = "/27:1k/15:4p3/14:3P3/1:1K/ b -- F14 0 30";
    let p = parse(s).unwrap();
    assert_eq!(write(&p), s);
    assert_eq!(
        parse("/27:1k/15:4p3/14:3P3/1:1K/ b -- G15@F14 0 30").unwrap(),
        p
    );
    assert!(parse("/27:1k/14:3P3/1:1K/ b -- F14 0 30").is_err());
}

#[test]
fn errors_name_the_offset() {
    let e = parse("/28:v/27:dk/ x").unwrap_err();
    assert_eq!(
        e,
        TlpdError::Syntax {
            offset: 13,
            expected: "'w' or 'b'",
            found: "'x'".into()
        }
    );
    assert_eq!(e.column(), Some(14));
    let e = parse("/28:q/").unwrap_err();
    assert!(matches!(e, TlpdError::Syntax { offset: 4, .. }), "{e}");
    assert_eq!(e.column(), Some(5));
    // A well-formed string of an impossible position has no column: the whole is at fault.
    let e = parse("/27:1k/26:1R/1:1K/ w -- - 0 1").unwrap_err();
    assert!(matches!(e, TlpdError::Invalid(_)), "{e}");
    assert_eq!(e.column(), None);
}
