//! A no-allocation streaming tokenizer for classic chess PGN bytes.
