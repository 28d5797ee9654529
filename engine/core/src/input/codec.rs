//! Raw input events as bytes, for recordings: a kind byte, then its payload
//! (little-endian; floats by their bits, so a replay feeds back exactly what
//! was recorded).

use glam::Vec2;

use super::gamepad::{PadAxis, PadButton};
use super::state::{InputEvent, Key, MouseButton};

/// Why an encoded event could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecodeError {
    /// The bytes end inside an event.
    Truncated,
    /// An unknown kind, key or button.
    Invalid,
}

/// Appends `event` to `out`.
pub(crate) fn encode(event: &InputEvent, out: &mut Vec<u8>) {
    let vec2 = |out: &mut Vec<u8>, v: Vec2| {
        out.extend_from_slice(&v.x.to_bits().to_le_bytes());
        out.extend_from_slice(&v.y.to_bits().to_le_bytes());
    };
    match *event {
        InputEvent::KeyDown(key) => out.extend_from_slice(&[0, key.index()]),
        InputEvent::KeyUp(key) => out.extend_from_slice(&[1, key.index()]),
        InputEvent::MouseDown(button) => out.extend_from_slice(&[2, button.index()]),
        InputEvent::MouseUp(button) => out.extend_from_slice(&[3, button.index()]),
        InputEvent::CursorMoved(at) => {
            out.push(4);
            vec2(out, at);
        }
        InputEvent::MouseMotion(delta) => {
            out.push(5);
            vec2(out, delta);
        }
        InputEvent::Wheel(lines) => {
            out.push(6);
            out.extend_from_slice(&lines.to_bits().to_le_bytes());
        }
        InputEvent::TouchStart { id, at } => {
            out.push(7);
            out.extend_from_slice(&id.to_le_bytes());
            vec2(out, at);
        }
        InputEvent::TouchMove { id, at } => {
            out.push(8);
            out.extend_from_slice(&id.to_le_bytes());
            vec2(out, at);
        }
        InputEvent::TouchEnd { id } => {
            out.push(9);
            out.extend_from_slice(&id.to_le_bytes());
        }
        InputEvent::Viewport { width, height } => {
            out.push(15);
            out.extend_from_slice(&width.to_le_bytes());
            out.extend_from_slice(&height.to_le_bytes());
        }
        InputEvent::PadConnected { pad } => {
            out.push(10);
            out.extend_from_slice(&pad.to_le_bytes());
        }
        InputEvent::PadDisconnected { pad } => {
            out.push(11);
            out.extend_from_slice(&pad.to_le_bytes());
        }
        InputEvent::PadDown { pad, button } => {
            out.push(12);
            out.extend_from_slice(&pad.to_le_bytes());
            out.push(button.index());
        }
        InputEvent::PadUp { pad, button } => {
            out.push(13);
            out.extend_from_slice(&pad.to_le_bytes());
            out.push(button.index());
        }
        InputEvent::PadAxis { pad, axis, value } => {
            out.push(14);
            out.extend_from_slice(&pad.to_le_bytes());
            out.push(axis.index());
            out.extend_from_slice(&value.to_bits().to_le_bytes());
        }
        InputEvent::Text(c) => {
            out.push(16);
            out.extend_from_slice(&u32::from(c).to_le_bytes());
        }
    }
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let slice = self
            .bytes
            .get(self.at..self.at + N)
            .ok_or(DecodeError::Truncated)?;
        self.at += N;
        let mut out = [0; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, DecodeError> {
        self.take::<1>().map(|b| b[0])
    }

    fn f32(&mut self) -> Result<f32, DecodeError> {
        self.take().map(|b| f32::from_bits(u32::from_le_bytes(b)))
    }

    fn vec2(&mut self) -> Result<Vec2, DecodeError> {
        Ok(Vec2::new(self.f32()?, self.f32()?))
    }

    fn u64(&mut self) -> Result<u64, DecodeError> {
        self.take().map(u64::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, DecodeError> {
        self.take().map(u32::from_le_bytes)
    }

    fn pad_button(&mut self) -> Result<PadButton, DecodeError> {
        PadButton::from_index(self.u8()?).ok_or(DecodeError::Invalid)
    }

    fn pad_axis(&mut self) -> Result<PadAxis, DecodeError> {
        PadAxis::from_index(self.u8()?).ok_or(DecodeError::Invalid)
    }

    fn key(&mut self) -> Result<Key, DecodeError> {
        Key::from_index(self.u8()?).ok_or(DecodeError::Invalid)
    }

    fn button(&mut self) -> Result<MouseButton, DecodeError> {
        MouseButton::from_index(self.u8()?).ok_or(DecodeError::Invalid)
    }
}

/// Reads one event from the front of `bytes`; returns it and the bytes used.
pub(crate) fn decode(bytes: &[u8]) -> Result<(InputEvent, usize), DecodeError> {
    let mut c = Cursor { bytes, at: 0 };
    let event = match c.u8()? {
        0 => InputEvent::KeyDown(c.key()?),
        1 => InputEvent::KeyUp(c.key()?),
        2 => InputEvent::MouseDown(c.button()?),
        3 => InputEvent::MouseUp(c.button()?),
        4 => InputEvent::CursorMoved(c.vec2()?),
        5 => InputEvent::MouseMotion(c.vec2()?),
        6 => InputEvent::Wheel(c.f32()?),
        7 => InputEvent::TouchStart {
            id: c.u64()?,
            at: c.vec2()?,
        },
        8 => InputEvent::TouchMove {
            id: c.u64()?,
            at: c.vec2()?,
        },
        9 => InputEvent::TouchEnd { id: c.u64()? },
        10 => InputEvent::PadConnected { pad: c.u32()? },
        15 => InputEvent::Viewport {
            width: c.u32()?,
            height: c.u32()?,
        },
        11 => InputEvent::PadDisconnected { pad: c.u32()? },
        12 => InputEvent::PadDown {
            pad: c.u32()?,
            button: c.pad_button()?,
        },
        13 => InputEvent::PadUp {
            pad: c.u32()?,
            button: c.pad_button()?,
        },
        14 => InputEvent::PadAxis {
            pad: c.u32()?,
            axis: c.pad_axis()?,
            value: c.f32()?,
        },
        16 => InputEvent::Text(char::from_u32(c.u32()?).ok_or(DecodeError::Invalid)?),
        _ => return Err(DecodeError::Invalid),
    };
    Ok((event, c.at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_bit_for_bit() {
        let events = [
            InputEvent::KeyDown(Key::F12),
            InputEvent::KeyUp(Key::A),
            InputEvent::MouseDown(MouseButton::Forward),
            InputEvent::MouseUp(MouseButton::Left),
            InputEvent::CursorMoved(Vec2::new(1.5, -0.0)),
            InputEvent::MouseMotion(Vec2::new(f32::MIN_POSITIVE, 3.0)),
            InputEvent::Wheel(-2.25),
            InputEvent::TouchStart {
                id: u64::MAX,
                at: Vec2::ONE,
            },
            InputEvent::TouchMove {
                id: 7,
                at: Vec2::new(9.0, 8.0),
            },
            InputEvent::TouchEnd { id: 7 },
            InputEvent::PadConnected { pad: 2 },
            InputEvent::PadDown {
                pad: 2,
                button: PadButton::DPadRight,
            },
            InputEvent::PadUp {
                pad: 2,
                button: PadButton::South,
            },
            InputEvent::PadAxis {
                pad: u32::MAX,
                axis: PadAxis::RightTrigger,
                value: -0.0,
            },
            InputEvent::PadDisconnected { pad: 2 },
            InputEvent::Viewport {
                width: 1920,
                height: 1080,
            },
            InputEvent::Text('é'),
            InputEvent::Text('\u{1F600}'),
        ];
        let mut bytes = Vec::new();
        for event in &events {
            encode(event, &mut bytes);
        }
        let mut at = 0;
        for event in &events {
            let (decoded, used) = decode(&bytes[at..]).unwrap();
            assert_eq!(format!("{decoded:?}"), format!("{event:?}"));
            at += used;
        }
        assert_eq!(at, bytes.len());
        assert_eq!(decode(&[4, 0, 0]), Err(DecodeError::Truncated));
        assert_eq!(decode(&[0, 250]), Err(DecodeError::Invalid));
        assert_eq!(decode(&[42]), Err(DecodeError::Invalid));
        assert_eq!(decode(&[12, 0, 0, 0, 0, 99]), Err(DecodeError::Invalid));
        assert_eq!(decode(&[14, 0, 0, 0, 0, 1, 0]), Err(DecodeError::Truncated));
        // A surrogate is no char.
        assert_eq!(decode(&[16, 0x00, 0xD8, 0, 0]), Err(DecodeError::Invalid));
        assert_eq!(decode(&[16, 0x41, 0]), Err(DecodeError::Truncated));
    }
}
