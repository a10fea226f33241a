//! Which game a `Variant` or `Game` tag names: the one rule the CTL-PGN readers and PCN
//! input share, so no door reads another game's record as C'escacs.

/// The only `Variant` value the CTL-PGN spec gives a C'escacs record.
const VARIANT: &str = "C'escacs";

/// Whether the tag `name` (`Variant` or `Game`, any case) with this `value` names a game
/// other than C'escacs. A `Variant` tag must say exactly `C'escacs` (as the readers
/// require; `Grand C'escacs` is another game). A `Game` tag, which some programs write to
/// say which game a record is, names C'escacs when it is empty, `?`, or spells the name
/// (any case, with or without the apostrophe); `Chess`, `Xiangqi`, … are other games.
/// Other tags never name a game.
pub fn names_another_game(name: &str, value: &str) -> bool {
    if name.eq_ignore_ascii_case("Variant") {
        return value != VARIANT;
    }
    if !name.eq_ignore_ascii_case("Game") {
        return false;
    }
    let v: String = value
        .trim()
        .chars()
        .filter(|c| !matches!(c, '\'' | '\u{2019}'))
        .flat_map(char::to_lowercase)
        .collect();
    !(v.is_empty() || v == "?" || v == "cescacs")
}

#[cfg(test)]
mod tests {
    use super::names_another_game;

    #[test]
    fn variant_and_game_tags() {
        assert!(!names_another_game("Variant", "C'escacs"));
        assert!(names_another_game("Variant", "Grand C'escacs"));
        assert!(names_another_game("variant", "Chess"));
        assert!(names_another_game("Variant", ""));
        for ours in ["", "?", "C'escacs", "c’escacs", "Cescacs", " CESCACS "] {
            assert!(!names_another_game("Game", ours), "{ours:?}");
        }
        for other in ["Chess", "Xiangqi", "Grand C'escacs", "Shogi"] {
            assert!(names_another_game("Game", other), "{other:?}");
        }
        assert!(!names_another_game("Event", "Chess"));
    }
}
