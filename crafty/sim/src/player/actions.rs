//! crafty's action set: one tick of player input packed into the engine's
//! 32-bit [`ActionFlags`], in a Marathon-style layout. The engine records and
//! replays the flags; what the bits mean is crafty's.
//!
//! The layout has three groups that each have a *mode bit* choosing between
//! individual flags (keyboard turning, walking) and an absolute value (mouse
//! look, analogue movement), then ten button bits.
//!
//! | bits | mode bit clear | mode bit set |
//! | --- | --- | --- |
//! | 0 | yaw mode | |
//! | 1-5 | turn left, turn right, sidestep-don't-turn, look left, look right | absolute yaw, 7 bits (1-7) |
//! | 8 | pitch mode | |
//! | 9-11 | look up, look down, look centre | absolute pitch, 5 bits (9-13) |
//! | 14 | movement mode | |
//! | 15-18 | forward, backward, run, look-don't-turn | absolute movement, 7 bits (15-21) |
//! | 22-31 | sidestep left, sidestep right, primary, secondary, action, next item, previous item, map, unused, swim | |

use taos_core::game_loop::ActionFlags;

const YAW_MODE: u32 = 1 << 0;
const PITCH_MODE: u32 = 1 << 8;
const MOVE_MODE: u32 = 1 << 14;
const YAW_SHIFT: u32 = 1;
const PITCH_SHIFT: u32 = 9;
const MOVE_SHIFT: u32 = 15;
const BUTTONS_SHIFT: u32 = 22;

/// Reading crafty's layout out of the engine's [`ActionFlags`].
pub trait ActionFlagsExt {
    /// Unpacks the flags.
    fn decode(self) -> PlayerActions;
    /// The bits that carry meaning under these flags' modes; the others are
    /// always written as zero by [`PlayerActions::encode`].
    fn meaningful_bits(self) -> u32;
}

impl ActionFlagsExt for ActionFlags {
    fn decode(self) -> PlayerActions {
        let f = self.0;
        let bit = |n: u32| f & (1 << n) != 0;
        let yaw = if f & YAW_MODE != 0 {
            Yaw::Absolute(((f >> YAW_SHIFT) & 0x7F) as u8)
        } else {
            Yaw::Relative {
                turn_left: bit(1),
                turn_right: bit(2),
                sidestep_dont_turn: bit(3),
                look_left: bit(4),
                look_right: bit(5),
            }
        };
        let pitch = if f & PITCH_MODE != 0 {
            Pitch::Absolute(((f >> PITCH_SHIFT) & 0x1F) as u8)
        } else {
            Pitch::Relative {
                look_up: bit(9),
                look_down: bit(10),
                look_center: bit(11),
            }
        };
        let movement = if f & MOVE_MODE != 0 {
            Movement::Absolute(((f >> MOVE_SHIFT) & 0x7F) as u8)
        } else {
            Movement::Relative {
                forward: bit(15),
                backward: bit(16),
                run: bit(17),
                look_dont_turn: bit(18),
            }
        };
        PlayerActions {
            yaw,
            pitch,
            movement,
            buttons: Buttons::from_bits((f >> BUTTONS_SHIFT) as u16),
        }
    }

    fn meaningful_bits(self) -> u32 {
        let yaw = if self.0 & YAW_MODE != 0 { 0xFF } else { 0x3F };
        let pitch = if self.0 & PITCH_MODE != 0 {
            0x3F00
        } else {
            0x0F00
        };
        let movement = if self.0 & MOVE_MODE != 0 {
            0x3F_C000
        } else {
            0x07_C000
        };
        yaw | pitch | movement | 0xFFC0_0000
    }
}

/// Horizontal look: keyboard flags or an absolute angle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Yaw {
    /// Individual turning flags.
    #[allow(missing_docs, reason = "flag names say it")]
    Relative {
        turn_left: bool,
        turn_right: bool,
        sidestep_dont_turn: bool,
        look_left: bool,
        look_right: bool,
    },
    /// An absolute yaw in 128 steps of a full turn (values above 127 are masked).
    Absolute(u8),
}

/// Vertical look: keyboard flags or an absolute angle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pitch {
    /// Individual look flags.
    #[allow(missing_docs, reason = "flag names say it")]
    Relative {
        look_up: bool,
        look_down: bool,
        look_center: bool,
    },
    /// An absolute pitch in 32 steps from straight down to straight up (masked to 5 bits).
    Absolute(u8),
}

/// Walking: keyboard flags or an absolute (analogue) value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Movement {
    /// Individual movement flags.
    #[allow(missing_docs, reason = "flag names say it")]
    Relative {
        forward: bool,
        backward: bool,
        run: bool,
        look_dont_turn: bool,
    },
    /// An absolute movement value in 128 steps (masked to 7 bits).
    Absolute(u8),
}

/// The ten button bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[allow(missing_docs, reason = "flag names say it")]
pub struct Buttons {
    pub sidestep_left: bool,
    pub sidestep_right: bool,
    pub primary: bool,
    pub secondary: bool,
    pub action: bool,
    pub next_weapon: bool,
    pub previous_weapon: bool,
    pub toggle_map: bool,
    pub microphone: bool,
    pub swim: bool,
}

impl Buttons {
    fn to_bits(self) -> u16 {
        [
            self.sidestep_left,
            self.sidestep_right,
            self.primary,
            self.secondary,
            self.action,
            self.next_weapon,
            self.previous_weapon,
            self.toggle_map,
            self.microphone,
            self.swim,
        ]
        .iter()
        .enumerate()
        .fold(0, |bits, (i, on)| bits | (u16::from(*on) << i))
    }

    fn from_bits(bits: u16) -> Self {
        let bit = |n: u16| bits & (1 << n) != 0;
        Self {
            sidestep_left: bit(0),
            sidestep_right: bit(1),
            primary: bit(2),
            secondary: bit(3),
            action: bit(4),
            next_weapon: bit(5),
            previous_weapon: bit(6),
            toggle_map: bit(7),
            microphone: bit(8),
            swim: bit(9),
        }
    }
}

/// Unpacked action flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlayerActions {
    /// Horizontal look.
    pub yaw: Yaw,
    /// Vertical look.
    pub pitch: Pitch,
    /// Walking.
    pub movement: Movement,
    /// Strafe, triggers, weapons, map, microphone, swim.
    pub buttons: Buttons,
}

impl Default for PlayerActions {
    fn default() -> Self {
        ActionFlags::NONE.decode()
    }
}

impl PlayerActions {
    /// Packs into 32 bits. Absolute values wider than their field are masked.
    #[must_use]
    pub fn encode(&self) -> ActionFlags {
        let on = |b: bool, n: u32| u32::from(b) << n;
        let yaw = match self.yaw {
            Yaw::Absolute(v) => YAW_MODE | (u32::from(v) & 0x7F) << YAW_SHIFT,
            Yaw::Relative {
                turn_left,
                turn_right,
                sidestep_dont_turn,
                look_left,
                look_right,
            } => {
                on(turn_left, 1)
                    | on(turn_right, 2)
                    | on(sidestep_dont_turn, 3)
                    | on(look_left, 4)
                    | on(look_right, 5)
            }
        };
        let pitch = match self.pitch {
            Pitch::Absolute(v) => PITCH_MODE | (u32::from(v) & 0x1F) << PITCH_SHIFT,
            Pitch::Relative {
                look_up,
                look_down,
                look_center,
            } => on(look_up, 9) | on(look_down, 10) | on(look_center, 11),
        };
        let movement = match self.movement {
            Movement::Absolute(v) => MOVE_MODE | (u32::from(v) & 0x7F) << MOVE_SHIFT,
            Movement::Relative {
                forward,
                backward,
                run,
                look_dont_turn,
            } => on(forward, 15) | on(backward, 16) | on(run, 17) | on(look_dont_turn, 18),
        };
        ActionFlags(yaw | pitch | movement | u32::from(self.buttons.to_bits()) << BUTTONS_SHIFT)
    }
}

/// Quantises a yaw angle (radians, any range) to the 7-bit absolute field.
#[must_use]
pub fn quantize_yaw(radians: f32) -> u8 {
    let turns = (radians / std::f32::consts::TAU).rem_euclid(1.0);
    ((turns * 128.0).round() as u32 % 128) as u8
}

/// The yaw angle (radians, 0..2pi) an absolute 7-bit field stands for.
#[must_use]
pub fn yaw_radians(step: u8) -> f32 {
    f32::from(step & 0x7F) / 128.0 * std::f32::consts::TAU
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_table() {
        let mut a = PlayerActions {
            movement: Movement::Relative {
                forward: true,
                backward: false,
                run: false,
                look_dont_turn: false,
            },
            ..PlayerActions::default()
        };
        assert_eq!(a.encode().0, 1 << 15);
        a.yaw = Yaw::Absolute(127);
        assert_eq!(a.encode().0, 1 << 15 | 1 | 0x7F << 1);
        a.buttons.swim = true;
        assert_eq!(a.encode().0 >> 31, 1);
    }

    #[test]
    fn yaw_quantisation_wraps() {
        assert_eq!(quantize_yaw(0.0), 0);
        assert_eq!(quantize_yaw(std::f32::consts::PI), 64);
        assert_eq!(quantize_yaw(-std::f32::consts::FRAC_PI_2), 96);
        assert_eq!(quantize_yaw(std::f32::consts::TAU), 0);
        assert!((yaw_radians(64) - std::f32::consts::PI).abs() < 1e-6);
    }
}
