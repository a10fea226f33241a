//! The `cescacs` command line tool.
fn main() {}
