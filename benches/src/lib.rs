//! Criterion benches for Taos: run `cargo bench -p taos_benches`. The library itself is empty.
