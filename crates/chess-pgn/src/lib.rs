//! Classic chess PGN games: tolerant streaming import, exact export, and SAN replay on a permissive rules crate.
