//! The saved form of [`Bindings`]: a few bytes a game stores with its
//! settings, and reads back with every entry checked. A record that does
//! not decode is an error naming the problem, so the game can fall back to
//! its defaults and say why.
//!
//! Layout: `TBND`, version 1, then one 3-byte entry per binding: the
//! action's bit, the device (0 key, 1 mouse button, 2 gamepad button, 3 the
//! positive half of a gamepad axis, 4 its negative half), and the input's
//! index ([`Key::index`], [`MouseButton::index`], [`PadButton::index`],
//! [`PadAxis::index`]).

use super::bindings::{Bindings, GameAction};
use super::gamepad::{AxisSide, PadAxis, PadButton};
use super::state::{Key, MouseButton};

const MAGIC: &[u8; 4] = b"TBND";
const VERSION: u8 = 1;
const DEVICE_KEY: u8 = 0;
const DEVICE_MOUSE: u8 = 1;
const DEVICE_PAD_BUTTON: u8 = 2;
const DEVICE_AXIS_POSITIVE: u8 = 3;
const DEVICE_AXIS_NEGATIVE: u8 = 4;

/// Why a saved bindings record was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BindingsRecordError {
    /// The record does not start with the bindings header.
    #[error("not a bindings record (no TBND header)")]
    NotBindings,
    /// A record from a newer (or unknown) version.
    #[error("bindings record version {0} is not supported (this build reads version 1)")]
    Version(u8),
    /// The entries do not come in whole 3-byte triples.
    #[error("bindings record is truncated: {0} stray bytes after the last entry")]
    Truncated(usize),
    /// An entry names an action bit the game does not have.
    #[error("binding {entry}: no action uses bit {bit}")]
    UnknownAction {
        /// Entry number, from 0.
        entry: usize,
        /// The bit read.
        bit: u8,
    },
    /// An entry names a device other than key, mouse button, gamepad button
    /// or axis half.
    #[error("binding {entry}: unknown device {device}")]
    UnknownDevice {
        /// Entry number, from 0.
        entry: usize,
        /// The device byte read.
        device: u8,
    },
    /// An entry's key or button index is out of range.
    #[error("binding {entry}: no {device} has index {index}")]
    UnknownInput {
        /// Entry number, from 0.
        entry: usize,
        /// `key`, `mouse button`, `gamepad button` or `gamepad axis`.
        device: &'static str,
        /// The index read.
        index: u8,
    },
}

impl<A: GameAction> Bindings<A> {
    /// The bindings as a record to save (see the module docs for the layout).
    #[must_use]
    pub fn to_record(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            5 + 3
                * (self.key_bindings().len()
                    + self.button_bindings().len()
                    + self.pad_button_bindings().len()
                    + self.axis_bindings().len()),
        );
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        for &(key, action) in self.key_bindings() {
            out.extend_from_slice(&[action.bit(), DEVICE_KEY, key.index()]);
        }
        for &(button, action) in self.button_bindings() {
            out.extend_from_slice(&[action.bit(), DEVICE_MOUSE, button.index()]);
        }
        for &(button, action) in self.pad_button_bindings() {
            out.extend_from_slice(&[action.bit(), DEVICE_PAD_BUTTON, button.index()]);
        }
        for &((axis, side), action) in self.axis_bindings() {
            let device = match side {
                AxisSide::Positive => DEVICE_AXIS_POSITIVE,
                AxisSide::Negative => DEVICE_AXIS_NEGATIVE,
            };
            out.extend_from_slice(&[action.bit(), device, axis.index()]);
        }
        out
    }

    /// Reads a record written by [`to_record`](Self::to_record); `actions`
    /// lists every action of the game (to turn bits back into actions).
    ///
    /// # Errors
    /// [`BindingsRecordError`] naming the first problem; nothing is applied.
    pub fn from_record(record: &[u8], actions: &[A]) -> Result<Self, BindingsRecordError> {
        let body = record
            .strip_prefix(MAGIC)
            .ok_or(BindingsRecordError::NotBindings)?;
        let (&version, entries) = body.split_first().ok_or(BindingsRecordError::NotBindings)?;
        if version != VERSION {
            return Err(BindingsRecordError::Version(version));
        }
        let triples = entries.chunks_exact(3);
        if !triples.remainder().is_empty() {
            return Err(BindingsRecordError::Truncated(triples.remainder().len()));
        }
        let mut bindings = Self::new();
        for (entry, triple) in triples.enumerate() {
            let &[bit, device, index] = triple else {
                unreachable!("chunks_exact(3) yields triples");
            };
            let action = actions
                .iter()
                .copied()
                .find(|action| action.bit() == bit)
                .ok_or(BindingsRecordError::UnknownAction { entry, bit })?;
            let unknown = |device| BindingsRecordError::UnknownInput {
                entry,
                device,
                index,
            };
            bindings = match device {
                DEVICE_KEY => bindings.key(
                    Key::from_index(index).ok_or_else(|| unknown("key"))?,
                    action,
                ),
                DEVICE_MOUSE => bindings.mouse(
                    MouseButton::from_index(index).ok_or_else(|| unknown("mouse button"))?,
                    action,
                ),
                DEVICE_PAD_BUTTON => bindings.pad(
                    PadButton::from_index(index).ok_or_else(|| unknown("gamepad button"))?,
                    action,
                ),
                DEVICE_AXIS_POSITIVE | DEVICE_AXIS_NEGATIVE => bindings.axis(
                    PadAxis::from_index(index).ok_or_else(|| unknown("gamepad axis"))?,
                    if device == DEVICE_AXIS_POSITIVE {
                        AxisSide::Positive
                    } else {
                        AxisSide::Negative
                    },
                    action,
                ),
                device => return Err(BindingsRecordError::UnknownDevice { entry, device }),
            };
        }
        Ok(bindings)
    }

    /// [`from_record`](Self::from_record), falling back to `defaults` (with
    /// a logged warning saying why) when the record does not decode: a
    /// corrupt settings file never stops the game.
    #[must_use]
    pub fn from_record_or(record: &[u8], actions: &[A], defaults: Self) -> Self {
        Self::from_record(record, actions).unwrap_or_else(|error| {
            log::warn!("saved key bindings ignored, using the defaults: {error}");
            defaults
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Act {
        Jump,
        Fire,
    }

    impl GameAction for Act {
        fn bit(self) -> u8 {
            self as u8
        }
    }

    const ALL: [Act; 2] = [Act::Jump, Act::Fire];

    fn defaults() -> Bindings<Act> {
        Bindings::new()
            .key(Key::Space, Act::Jump)
            .mouse(MouseButton::Left, Act::Fire)
    }

    #[test]
    fn gamepad_buttons_and_axis_halves_round_trip() {
        let mut bindings = defaults().pad(PadButton::South, Act::Jump).axis(
            PadAxis::RightTrigger,
            AxisSide::Positive,
            Act::Fire,
        );
        bindings.set_axes(
            Act::Jump,
            &[
                (PadAxis::LeftY, AxisSide::Positive),
                (PadAxis::LeftY, AxisSide::Negative),
            ],
        );
        let record = bindings.to_record();
        let back = Bindings::from_record(&record, &ALL).unwrap();
        assert_eq!(
            back.pad_buttons_for(Act::Jump).collect::<Vec<_>>(),
            [PadButton::South]
        );
        assert_eq!(
            back.axes_for(Act::Jump).collect::<Vec<_>>(),
            [
                (PadAxis::LeftY, AxisSide::Positive),
                (PadAxis::LeftY, AxisSide::Negative)
            ]
        );
        assert_eq!(
            back.axes_for(Act::Fire).collect::<Vec<_>>(),
            [(PadAxis::RightTrigger, AxisSide::Positive)]
        );
        assert_eq!(back.to_record(), record);
        let mut bad_axis = record.clone();
        let last = bad_axis.len() - 1;
        bad_axis[last] = 40;
        assert!(matches!(
            Bindings::from_record(&bad_axis, &ALL),
            Err(BindingsRecordError::UnknownInput {
                device: "gamepad axis",
                index: 40,
                ..
            })
        ));
    }

    #[test]
    fn a_rebound_set_round_trips_through_its_record() {
        let mut bindings = defaults();
        bindings.set_keys(Act::Jump, &[Key::W, Key::ArrowUp]);
        bindings.set_buttons(Act::Fire, &[MouseButton::Right]);
        let record = bindings.to_record();
        let back = Bindings::from_record(&record, &ALL).unwrap();
        assert_eq!(
            back.keys_for(Act::Jump).collect::<Vec<_>>(),
            [Key::W, Key::ArrowUp]
        );
        assert_eq!(
            back.buttons_for(Act::Fire).collect::<Vec<_>>(),
            [MouseButton::Right]
        );
        assert_eq!(back.to_record(), record);
    }

    #[test]
    fn corrupt_records_are_named_errors_and_fall_back_to_the_defaults() {
        let good = defaults().to_record();
        let mut bad_action = good.clone();
        bad_action[5] = 9;
        let mut bad_key = good.clone();
        bad_key[7] = 250;
        let mut bad_device = good.clone();
        bad_device[6] = 7;
        let cases: [(&[u8], BindingsRecordError); 6] = [
            (b"", BindingsRecordError::NotBindings),
            (b"{\"jump\": \"space\"}", BindingsRecordError::NotBindings),
            (b"TBND\x02", BindingsRecordError::Version(2)),
            (&good[..good.len() - 1], BindingsRecordError::Truncated(2)),
            (
                &bad_action,
                BindingsRecordError::UnknownAction { entry: 0, bit: 9 },
            ),
            (
                &bad_key,
                BindingsRecordError::UnknownInput {
                    entry: 0,
                    device: "key",
                    index: 250,
                },
            ),
        ];
        for (record, expected) in cases {
            assert_eq!(Bindings::from_record(record, &ALL).unwrap_err(), expected);
            let fallback = Bindings::from_record_or(record, &ALL, defaults());
            assert_eq!(fallback.to_record(), good);
        }
        assert_eq!(
            Bindings::from_record(&bad_device, &ALL).unwrap_err(),
            BindingsRecordError::UnknownDevice {
                entry: 0,
                device: 7
            }
        );
    }
}
