//! Shared proptest strategies for the decoders' hostile-input tests; not a
//! fuzzer, not used by any library.
//!
//! The `*_fuzz` tests of the engine crates and crafty (recordings,
//! snapshots, saved worlds, thumbnails, WAV files, glTF models, backups,
//! settings) feed a valid input, damaged, to a decoder and check that it
//! returns a result or an error, never a panic, a hang or a huge
//! allocation. This crate holds what they share: the proptest
//! configuration ([`config`]) and byte-level damage ([`Mutation`],
//! [`mutation`], [`apply`], [`mutated`]). Each test keeps what is its own
//! (its seed input, structure-aware changes to its JSON, its checks).
//!
//! What it is not: a coverage-guided fuzzer (no corpus, no
//! instrumentation; every run draws proptest's random cases afresh, with no
//! failure files written), and not a dependency of any library or binary:
//! crates take it as a `[dev-dependencies]` entry only, and it is never
//! published.
//!
//! # How many cases
//!
//! 256 cases per property by default (seconds in a debug build). One
//! variable sets it for every such test, for a deeper run locally:
//!
//! ```sh
//! TAOS_FUZZ_CASES=10000 cargo test -p taos_core --test replay_fuzz
//! ```

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

/// The environment variable that sets how many cases each property runs.
pub const CASES_VAR: &str = "TAOS_FUZZ_CASES";

/// Cases per property when [`CASES_VAR`] is not set.
pub const DEFAULT_CASES: u32 = 256;

/// The case count: [`CASES_VAR`] when it is set to a number, else `default`.
pub fn cases(default: u32) -> u32 {
    cases_from(std::env::var(CASES_VAR).ok().as_deref(), default)
}

fn cases_from(value: Option<&str>, default: u32) -> u32 {
    value.and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

/// The configuration of every hostile-input property:
/// [`cases`]`(`[`DEFAULT_CASES`]`)` cases and no failure-persistence files
/// (a failing case is printed; tests do not write `proptest-regressions/`).
///
/// Change a field with struct update syntax:
/// `ProptestConfig { max_shrink_iters: 8, ..taos_hostile_inputs::config() }`.
pub fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(DEFAULT_CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// One change to a byte string.
///
/// Positions wrap: one at or past the current length is taken modulo the
/// length (modulo the length plus one where the end itself is a place, for
/// [`Insert`](Mutation::Insert) and [`Truncate`](Mutation::Truncate)), so a
/// mutation drawn for the original input still lands after an earlier one
/// shortened it. On an empty input only `Insert` and `Number` change
/// anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mutation {
    /// Sets the byte at the position.
    Byte(usize, u8),
    /// Flips one bit (0 to 7; higher numbers wrap) of the byte at the position.
    Flip(usize, u8),
    /// Overwrites four bytes from the position with a little-endian `u32`
    /// (a count or a length), cut short at the end of the input.
    Word(usize, u32),
    /// Overwrites eight bytes from the position with a little-endian `u64`,
    /// cut short at the end of the input.
    Long(usize, u64),
    /// Inserts these bytes before the position.
    Insert(usize, Vec<u8>),
    /// Removes this many bytes from the position on (fewer at the end).
    Delete(usize, usize),
    /// Cuts the input to this length.
    Truncate(usize),
    /// Replaces a run of ASCII digits (with any `.` inside or after it) with
    /// this text: the run holding the digit picked by the position, counted
    /// among the input's digit bytes. Where the input has no digits, the
    /// text is inserted at the position. Numbers in JSON stay numbers, so
    /// the damage gets past the parser.
    Number(usize, &'static str),
}

/// Bytes that decoders treat specially: JSON's punctuation, digits and the
/// first letters of its literals; the extremes and sign bits of a byte; JPEG
/// marker bytes (start and end of image, frame, Huffman and quantization
/// tables, start of scan, restart interval).
pub const HOSTILE_BYTES: &[u8] =
    b"{}[]\",:-0123456789.eE ntf\x00\x01\x7f\x80\xff\xc0\xc4\xd8\xd9\xda\xdb\xdd";

/// Numbers written into text by [`Mutation::Number`]: zero and small
/// counts, negatives, the edges of 16, 32 and 64 bits, floats beyond `f32`
/// and `f64` ranges, and glTF's component types and buffer target.
pub const HOSTILE_NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "255",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "9999999999999",
    "1e30",
    "1e39",
    "-1e308",
    "0.5",
    "-0.5",
    "5121",
    "5123",
    "5125",
    "5126",
    "34962",
];

/// A byte for [`Mutation::Byte`] and [`Mutation::Insert`]: half the time one
/// of [`HOSTILE_BYTES`], else any byte.
pub fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![select(HOSTILE_BYTES), any::<u8>()]
}

/// A 32-bit count or length: zero, one and other small values, the sign
/// bit, values near `u32::MAX`, or any.
pub fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        select(vec![
            0u32,
            1,
            2,
            12,
            0x7FFF_FFFF,
            0x8000_0000,
            4_000_000_000,
            u32::MAX - 1,
            u32::MAX,
        ]),
        0u32..256,
        any::<u32>(),
    ]
}

/// A 64-bit count or length: small, a power of two past 32 bits, values
/// near `u32::MAX` and `u64::MAX`, or any.
pub fn long() -> impl Strategy<Value = u64> {
    prop_oneof![
        select(vec![
            u64::from(u32::MAX),
            1u64 << 32,
            1u64 << 62,
            u64::MAX - 1,
            u64::MAX
        ]),
        0u64..64,
        any::<u64>(),
    ]
}

/// Any [`Mutation`], every kind equally likely, at positions below `len`
/// (the length of the input it is drawn for; `0` is allowed). Inserted bytes
/// are one byte or a run of up to 15; deletions one byte or up to 63.
pub fn mutation(len: usize) -> impl Strategy<Value = Mutation> {
    let at = 0..len.max(1);
    let inserted = prop_oneof![byte().prop_map(|b| vec![b]), vec(byte(), 2..16)];
    let count = prop_oneof![Just(1usize), 1usize..64];
    prop_oneof![
        (at.clone(), byte()).prop_map(|(at, b)| Mutation::Byte(at, b)),
        (at.clone(), 0u8..8).prop_map(|(at, bit)| Mutation::Flip(at, bit)),
        (at.clone(), word()).prop_map(|(at, w)| Mutation::Word(at, w)),
        (at.clone(), long()).prop_map(|(at, w)| Mutation::Long(at, w)),
        (0..=len, inserted).prop_map(|(at, b)| Mutation::Insert(at, b)),
        (at.clone(), count).prop_map(|(at, n)| Mutation::Delete(at, n)),
        (0..=len).prop_map(Mutation::Truncate),
        (at, select(HOSTILE_NUMBERS)).prop_map(|(at, n)| Mutation::Number(at, n)),
    ]
}

/// `bytes` with `mutations` applied in order.
pub fn apply(bytes: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for m in mutations {
        apply_one(&mut out, m);
    }
    out
}

/// Overwrites `bytes` from `at` with as much of `value` as fits.
fn overwrite(bytes: &mut [u8], at: usize, value: &[u8]) {
    let end = (at + value.len()).min(bytes.len());
    if at < end {
        bytes[at..end].copy_from_slice(&value[..end - at]);
    }
}

fn apply_one(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let len = bytes.len();
    // A place in the input (none when it is empty), or between its bytes.
    let inside = |at: usize| (len > 0).then(|| at % len);
    let between = |at: usize| at % (len + 1);
    match mutation {
        Mutation::Byte(at, b) => {
            if let Some(at) = inside(*at) {
                bytes[at] = *b;
            }
        }
        Mutation::Flip(at, bit) => {
            if let Some(at) = inside(*at) {
                bytes[at] ^= 1 << (bit % 8);
            }
        }
        Mutation::Word(at, w) => {
            if let Some(at) = inside(*at) {
                overwrite(bytes, at, &w.to_le_bytes());
            }
        }
        Mutation::Long(at, w) => {
            if let Some(at) = inside(*at) {
                overwrite(bytes, at, &w.to_le_bytes());
            }
        }
        Mutation::Insert(at, inserted) => {
            let at = between(*at);
            bytes.splice(at..at, inserted.iter().copied());
        }
        Mutation::Delete(at, n) => {
            if let Some(at) = inside(*at) {
                bytes.drain(at..at.saturating_add(*n).min(len));
            }
        }
        Mutation::Truncate(at) => bytes.truncate(between(*at)),
        Mutation::Number(at, text) => {
            let digits: Vec<usize> = (0..len).filter(|&i| bytes[i].is_ascii_digit()).collect();
            if digits.is_empty() {
                let at = between(*at);
                bytes.splice(at..at, text.bytes());
                return;
            }
            let pick = digits[at % digits.len()];
            let mut start = pick;
            while start > 0 && bytes[start - 1].is_ascii_digit() {
                start -= 1;
            }
            let mut end = pick;
            while end < len && (bytes[end].is_ascii_digit() || bytes[end] == b'.') {
                end += 1;
            }
            bytes.splice(start..end, text.bytes());
        }
    }
}

/// `seed` with 1 to `max_mutations` (at least 1) [`mutation`]s applied.
///
/// Proptest shrinks toward fewer and smaller mutations; a failure prints the
/// mutated bytes. Where the mutations themselves are wanted in the report,
/// draw `vec(mutation(len), 1..n)` and [`apply`] them in the test instead.
pub fn mutated(seed: Vec<u8>, max_mutations: usize) -> impl Strategy<Value = Vec<u8>> {
    vec(mutation(seed.len()), 1..=max_mutations.max(1))
        .prop_map(move |mutations| apply(&seed, &mutations))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &[u8] = b"abcdefgh";

    fn one(m: Mutation) -> Vec<u8> {
        apply(SEED, &[m])
    }

    #[test]
    fn byte_sets_one_byte() {
        assert_eq!(one(Mutation::Byte(1, b'X')), b"aXcdefgh");
        // Wraps past the end.
        assert_eq!(one(Mutation::Byte(9, b'X')), b"aXcdefgh");
    }

    #[test]
    fn flip_flips_one_bit() {
        assert_eq!(one(Mutation::Flip(0, 5)), b"Abcdefgh");
        assert_eq!(one(Mutation::Flip(0, 13)), b"Abcdefgh");
    }

    #[test]
    fn word_and_long_overwrite_little_endian_cut_at_the_end() {
        assert_eq!(one(Mutation::Word(2, 0x0403_0201)), b"ab\x01\x02\x03\x04gh");
        assert_eq!(one(Mutation::Word(6, u32::MAX)), b"abcdef\xff\xff");
        assert_eq!(
            one(Mutation::Long(0, 0x0807_0605_0403_0201)),
            b"\x01\x02\x03\x04\x05\x06\x07\x08"
        );
        assert_eq!(one(Mutation::Long(7, u64::MAX)), b"abcdefg\xff");
    }

    #[test]
    fn insert_inserts_before_the_position_or_at_the_end() {
        assert_eq!(one(Mutation::Insert(2, b"XY".to_vec())), b"abXYcdefgh");
        assert_eq!(one(Mutation::Insert(8, b"Z".to_vec())), b"abcdefghZ");
        assert_eq!(apply(b"", &[Mutation::Insert(5, b"Z".to_vec())]), b"Z");
    }

    #[test]
    fn delete_removes_up_to_n_bytes() {
        assert_eq!(one(Mutation::Delete(1, 2)), b"adefgh");
        assert_eq!(one(Mutation::Delete(6, 100)), b"abcdef");
        assert_eq!(one(Mutation::Delete(0, usize::MAX)), b"");
    }

    #[test]
    fn truncate_cuts_to_a_length() {
        assert_eq!(one(Mutation::Truncate(3)), b"abc");
        assert_eq!(one(Mutation::Truncate(8)), SEED);
        assert_eq!(one(Mutation::Truncate(0)), b"");
    }

    #[test]
    fn number_replaces_a_digit_run_or_inserts() {
        let json = br#"{"a":12,"b":3.5}"#;
        assert_eq!(
            apply(json, &[Mutation::Number(0, "-1")]),
            br#"{"a":-1,"b":3.5}"#
        );
        // The second digit byte is in the same run; the third starts the next.
        assert_eq!(
            apply(json, &[Mutation::Number(1, "1e39")]),
            br#"{"a":1e39,"b":3.5}"#
        );
        assert_eq!(
            apply(json, &[Mutation::Number(2, "4294967296")]),
            br#"{"a":12,"b":4294967296}"#
        );
        assert_eq!(one(Mutation::Number(3, "7")), b"abc7defgh");
    }

    #[test]
    fn mutations_apply_in_order_and_nothing_panics_on_empty_input() {
        let all = [
            Mutation::Byte(0, 1),
            Mutation::Flip(0, 1),
            Mutation::Word(0, 1),
            Mutation::Long(0, 1),
            Mutation::Delete(0, 1),
            Mutation::Truncate(3),
        ];
        assert_eq!(apply(b"", &all), b"");
        assert_eq!(
            apply(SEED, &[Mutation::Truncate(2), Mutation::Byte(5, b'X')]),
            b"aX"
        );
    }

    #[test]
    fn the_case_count_is_the_variable_when_it_is_a_number() {
        assert_eq!(cases_from(None, 256), 256);
        assert_eq!(cases_from(Some("10000"), 256), 10_000);
        assert_eq!(cases_from(Some("lots"), 400), 400);
        assert!(config().failure_persistence.is_none());
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn drawn_mutations_apply_to_any_length(
            len in 0usize..40,
            mutations in vec(mutation(40), 1..6),
        ) {
            let seed = vec![b'7'; len];
            let out = apply(&seed, &mutations);
            prop_assert!(out.len() <= len + 6 * 24);
        }

        #[test]
        fn mutated_changes_at_most_the_seed_length_plus_the_inserts(
            bytes in mutated(SEED.to_vec(), 3),
        ) {
            prop_assert!(bytes.len() <= SEED.len() + 3 * 20);
        }
    }
}
