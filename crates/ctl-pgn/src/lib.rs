//! CTL-PGN game files for C'escacs: a pest grammar, a lossless game model, a tolerant reader, an exact writer and legal replay.
