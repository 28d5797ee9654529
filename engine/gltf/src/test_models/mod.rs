//! Test models (placeholder).
