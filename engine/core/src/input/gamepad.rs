//! Gamepads as the loop sees them: buttons and axes of a standard layout,
//! named by position (an Xbox "A" and a PlayStation "cross" are both
//! [`PadButton::South`]), and the per-pad state [`Input`](crate::game_loop::Input) keeps.
//!
//! Pads come and go while the game runs (hot-plug): a pad is known from its
//! [`PadConnected`](crate::game_loop::InputEvent::PadConnected) event until its
//! [`PadDisconnected`](crate::game_loop::InputEvent::PadDisconnected), which lets go of
//! its held buttons (with release edges) and centres its axes, so an
//! unplugged pad never leaves a player running.

use std::collections::BTreeMap;

/// Which gamepad: an id the platform gives when it connects, stable while it
/// stays connected.
pub type PadId = u32;

/// A gamepad button, by position on a standard pad.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum PadButton {
    /// Bottom face button (Xbox A, PlayStation cross).
    South,
    /// Right face button (Xbox B, PlayStation circle).
    East,
    /// Top face button (Xbox Y, PlayStation triangle).
    North,
    /// Left face button (Xbox X, PlayStation square).
    West,
    /// Left shoulder button.
    LeftBumper,
    /// Right shoulder button.
    RightBumper,
    /// Left trigger, pulled past half way (its travel is [`PadAxis::LeftTrigger`]).
    LeftTrigger,
    /// Right trigger, pulled past half way (its travel is [`PadAxis::RightTrigger`]).
    RightTrigger,
    /// The small left centre button (Select, Back, View, Share).
    Select,
    /// The small right centre button (Start, Menu, Options).
    Start,
    /// The logo button.
    Mode,
    /// Pressing the left stick in.
    LeftStick,
    /// Pressing the right stick in.
    RightStick,
    /// D-pad up.
    DPadUp,
    /// D-pad down.
    DPadDown,
    /// D-pad left.
    DPadLeft,
    /// D-pad right.
    DPadRight,
}

indexed_by_all!(PadButton);
indexed_by_all!(PadAxis);

impl PadButton {
    /// Every button, in declaration order: `PadButton::ALL[b as usize] == b`.
    pub const ALL: [PadButton; 17] = [
        PadButton::South,
        PadButton::East,
        PadButton::North,
        PadButton::West,
        PadButton::LeftBumper,
        PadButton::RightBumper,
        PadButton::LeftTrigger,
        PadButton::RightTrigger,
        PadButton::Select,
        PadButton::Start,
        PadButton::Mode,
        PadButton::LeftStick,
        PadButton::RightStick,
        PadButton::DPadUp,
        PadButton::DPadDown,
        PadButton::DPadLeft,
        PadButton::DPadRight,
    ];
}

/// A gamepad axis. Sticks read -1..=1 with +x right and +y **up**; triggers
/// read 0 (released) ..= 1 (pulled fully).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum PadAxis {
    /// Left stick, right is positive.
    LeftX,
    /// Left stick, up is positive.
    LeftY,
    /// Right stick, right is positive.
    RightX,
    /// Right stick, up is positive.
    RightY,
    /// Left trigger travel.
    LeftTrigger,
    /// Right trigger travel.
    RightTrigger,
}

impl PadAxis {
    /// Every axis, in declaration order.
    pub const ALL: [PadAxis; 6] = [
        PadAxis::LeftX,
        PadAxis::LeftY,
        PadAxis::RightX,
        PadAxis::RightY,
        PadAxis::LeftTrigger,
        PadAxis::RightTrigger,
    ];

    /// The range the axis reads in: -1 for sticks, 0 for triggers, up to 1.
    #[must_use]
    pub const fn min_value(self) -> f32 {
        match self {
            PadAxis::LeftTrigger | PadAxis::RightTrigger => 0.0,
            _ => -1.0,
        }
    }
}

/// Which half of an axis a binding uses (a stick's up or down, left or right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AxisSide {
    /// Values above 0 (right, up, a trigger pulled).
    Positive,
    /// Values below 0 (left, down).
    Negative,
}

impl AxisSide {
    /// How far along this side `value` is: 0 at the centre or on the other
    /// side, up to 1.
    #[must_use]
    pub fn amount(self, value: f32) -> f32 {
        match self {
            AxisSide::Positive => value.clamp(0.0, 1.0),
            AxisSide::Negative => (-value).clamp(0.0, 1.0),
        }
    }
}

/// Axis readings closer to the centre than this count as centred (worn
/// sticks rest a little off centre).
pub const STICK_DEAD_ZONE: f32 = 0.15;

/// Rescales a reading so the dead zone reads 0 and the rest of the travel
/// still reaches 1 (no jump at the dead zone's edge).
#[must_use]
pub fn apply_dead_zone(value: f32) -> f32 {
    let magnitude = value.abs();
    if magnitude <= STICK_DEAD_ZONE {
        0.0
    } else {
        value.signum() * ((magnitude - STICK_DEAD_ZONE) / (1.0 - STICK_DEAD_ZONE)).min(1.0)
    }
}

/// The axes of the connected pads.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pads {
    axes: BTreeMap<PadId, [f32; PadAxis::ALL.len()]>,
}

impl Pads {
    pub(crate) fn connect(&mut self, pad: PadId) {
        self.axes.entry(pad).or_insert([0.0; PadAxis::ALL.len()]);
    }

    /// Forgets the pad; `true` if it was connected.
    pub(crate) fn disconnect(&mut self, pad: PadId) -> bool {
        self.axes.remove(&pad).is_some()
    }

    /// Sets an axis (a pad not yet announced is connected by its first reading).
    pub(crate) fn set_axis(&mut self, pad: PadId, axis: PadAxis, value: f32) {
        if value.is_finite() {
            let slot = &mut self.axes.entry(pad).or_insert([0.0; PadAxis::ALL.len()])
                [usize::from(axis.index())];
            *slot = value.clamp(axis.min_value(), 1.0);
        }
    }

    pub(crate) fn axis(&self, pad: PadId, axis: PadAxis) -> Option<f32> {
        self.axes.get(&pad).map(|a| a[usize::from(axis.index())])
    }

    /// The reading furthest from the centre over every pad (so whichever pad
    /// the player picks up works); 0 with none.
    pub(crate) fn strongest(&self, axis: PadAxis) -> f32 {
        self.axes
            .values()
            .map(|a| a[usize::from(axis.index())])
            .fold(0.0, |best, v| if v.abs() > best.abs() { v } else { best })
    }

    pub(crate) fn ids(&self) -> impl Iterator<Item = PadId> + '_ {
        self.axes.keys().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip_and_unknown_indices_are_none() {
        for (i, b) in PadButton::ALL.iter().enumerate() {
            assert_eq!(usize::from(b.index()), i);
            assert_eq!(PadButton::from_index(b.index()), Some(*b));
        }
        for (i, a) in PadAxis::ALL.iter().enumerate() {
            assert_eq!(usize::from(a.index()), i);
            assert_eq!(PadAxis::from_index(a.index()), Some(*a));
        }
        assert_eq!(PadButton::from_index(17), None);
        assert_eq!(PadAxis::from_index(6), None);
    }

    #[test]
    fn the_dead_zone_reads_zero_and_the_rest_still_reaches_one() {
        assert_eq!(apply_dead_zone(0.1), 0.0);
        assert_eq!(apply_dead_zone(-0.15), 0.0);
        assert!((apply_dead_zone(1.0) - 1.0).abs() < 1e-6);
        assert!((apply_dead_zone(-1.0) + 1.0).abs() < 1e-6);
        let just_past = apply_dead_zone(0.16);
        assert!(just_past > 0.0 && just_past < 0.02, "{just_past}");
    }

    #[test]
    fn readings_are_clamped_and_nan_is_ignored() {
        let mut pads = Pads::default();
        pads.set_axis(3, PadAxis::LeftX, 0.5);
        pads.set_axis(3, PadAxis::LeftX, f32::NAN);
        assert_eq!(pads.axis(3, PadAxis::LeftX), Some(0.5));
        pads.set_axis(3, PadAxis::LeftTrigger, -0.4);
        assert_eq!(pads.axis(3, PadAxis::LeftTrigger), Some(0.0));
        pads.set_axis(4, PadAxis::LeftX, -0.9);
        assert_eq!(pads.strongest(PadAxis::LeftX), -0.9);
        assert!(pads.disconnect(4));
        assert_eq!(pads.strongest(PadAxis::LeftX), 0.5);
        assert!(!pads.disconnect(4));
    }
}
