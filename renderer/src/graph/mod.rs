//! The per-frame render graph.
