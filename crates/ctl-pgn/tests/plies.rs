//! `Game::plies`: the main line with positions, notation, comments and variations,
//! against the replay of the same records.

use ctl_pgn::*;

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn plies_follow_the_replay_on_the_oracle_games() {
    let dir = test_support::shared("oracle/games");
    let mut games = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if !p.to_string_lossy().ends_with(".ctl-pgn") {
            continue;
        }
        let src = std::fs::read_to_string(&p).unwrap();
        for r in replay("o", &src, Options::default()) {
            if r.has_errors() {
                continue;
            }
            let g = r.game.as_ref().unwrap();
            let mut plies = g.plies().unwrap();
            let mut n = 0;
            for ply in plies.by_ref() {
                let ply = ply.unwrap();
                assert_eq!(ply.before.side_to_move(), ply.node.side);
                n += 1;
            }
            assert_eq!(n, r.plies, "{}", p.display());
            assert_eq!(cescacs_tlpd::write(plies.position()), r.tlpd().unwrap());
            games += 1;
        }
    }
    assert!(games > 300, "{games} games");
}

#[test]
fn comments_and_variations_are_reachable() {
    let src = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n{@B: central}\n.(1. …, F20-F16 {other})\n2. F8-F12 *\n";
    let g = read_game(src).unwrap();
    let plies: Vec<Ply> = g.plies().unwrap().map(Result::unwrap).collect();
    assert_eq!(plies.len(), 3);
    assert_eq!(plies[1].notation, "E21-E15");
    assert_eq!(plies[1].comments[0].text, " central");
    let (v, alt) = plies[1].variations().next().unwrap();
    assert_eq!(v.line.moves().count(), 1);
    let alt: Vec<Ply> = alt.map(Result::unwrap).collect();
    assert_eq!(alt[0].notation, "F20-F16");
    assert_eq!(alt[0].comments[0].text, "other");
    assert_eq!(alt[0].before, plies[1].before);
}

#[test]
fn an_illegal_move_ends_the_iteration_with_an_error() {
    let g = read_game("1. E7-E14 *\n").unwrap();
    let v: Vec<_> = g.plies().unwrap().collect();
    assert_eq!(v.len(), 1);
    assert!(v[0].is_err());
}
