//! PCN, the Portable Chess Notation: a JSON game model for boards of any shape, with validation and a rules-free replayer.
