//! [`RemoteView`]: the other players, shown smoothly between the server's
//! states.
//!
//! Each state gives every other player's position at a server tick. A
//! client shows them [`DELAY_TICKS`] behind the newest state, interpolated
//! between the two states around that moment, so a lost or late state is
//! bridged instead of making them jump; a player who moved farther than
//! [`TELEPORT`] between two states is shown at the new place at once.

use std::collections::{BTreeMap, VecDeque};

use crafty_net::protocol::RemotePlayer;
use glam::Vec3;

/// How far behind the newest state the others are shown, in server ticks.
pub const DELAY_TICKS: f64 = 2.0;

/// A move between two states longer than this (metres) is a teleport, not
/// interpolated.
pub const TELEPORT: f32 = 8.0;

/// States kept per player.
const KEPT: usize = 32;

/// One remote player as shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shown {
    /// The server's number for them.
    pub player: u32,
    /// Feet position.
    pub position: Vec3,
    /// Heading, radians.
    pub yaw: f32,
}

/// The other players' recent states; see the [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct RemoteView {
    states: BTreeMap<u32, VecDeque<(u64, Vec3, f32)>>,
    newest: u64,
}

impl RemoteView {
    /// Takes a state of server tick `tick` (states may arrive out of
    /// order; an older one fills its place). Players missing from the
    /// newest state are no longer shown.
    pub fn push(&mut self, tick: u64, others: &[RemotePlayer]) {
        for other in others {
            let states = self.states.entry(other.player).or_default();
            let at = states.partition_point(|(t, _, _)| *t < tick);
            if states.get(at).is_some_and(|(t, _, _)| *t == tick) {
                continue;
            }
            states.insert(at, (tick, Vec3::from_array(other.position), other.yaw));
            while states.len() > KEPT {
                states.pop_front();
            }
        }
        if tick > self.newest {
            self.newest = tick;
            self.states
                .retain(|player, _| others.iter().any(|o| o.player == *player));
        }
    }

    /// The newest server tick a state came from (0 before any).
    #[must_use]
    pub fn newest(&self) -> u64 {
        self.newest
    }

    /// The others as shown at `now`, in server ticks (fractions between
    /// ticks), [`DELAY_TICKS`] behind.
    #[must_use]
    pub fn shown(&self, now: f64) -> Vec<Shown> {
        let at = now - DELAY_TICKS;
        self.states
            .iter()
            .filter_map(|(&player, states)| {
                let after = states.partition_point(|(t, _, _)| (*t as f64) < at);
                let (position, yaw) = match (
                    after.checked_sub(1).and_then(|i| states.get(i)),
                    states.get(after),
                ) {
                    (Some(&(t0, p0, y0)), Some(&(t1, p1, y1))) if p0.distance(p1) <= TELEPORT => {
                        let f = ((at - t0 as f64) / (t1 - t0).max(1) as f64).clamp(0.0, 1.0) as f32;
                        (p0.lerp(p1, f), lerp_angle(y0, y1, f))
                    }
                    (_, Some(&(_, p, y))) | (Some(&(_, p, y)), None) => (p, y),
                    (None, None) => return None,
                };
                Some(Shown {
                    player,
                    position,
                    yaw,
                })
            })
            .collect()
    }
}

/// The shorter way round from `a` to `b`, a fraction `f` of it.
fn lerp_angle(a: f32, b: f32, f: f32) -> f32 {
    let tau = std::f32::consts::TAU;
    let delta = (b - a + std::f32::consts::PI).rem_euclid(tau) - std::f32::consts::PI;
    a + delta * f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(player: u32, x: f32) -> RemotePlayer {
        RemotePlayer {
            player,
            position: [x, 0.0, 0.0],
            yaw: 0.0,
        }
    }

    #[test]
    fn a_steady_walker_is_shown_moving_smoothly_through_a_lost_state() {
        let mut view = RemoteView::default();
        // One metre a tick; the state of tick 3 is lost, tick 5 comes late.
        for tick in [1u64, 2, 4, 6, 5] {
            view.push(tick, &[at(9, tick as f32)]);
        }
        for step in 0..=16 {
            let now = 4.0 + f64::from(step) * 0.25;
            let shown = view.shown(now);
            let x = shown[0].position.x;
            let expected = (now - DELAY_TICKS) as f32;
            assert!((x - expected).abs() < 1e-4, "at {now}: {x}, not {expected}");
        }
    }

    #[test]
    fn a_teleport_is_not_interpolated_and_a_leaver_is_not_shown() {
        let mut view = RemoteView::default();
        view.push(1, &[at(1, 0.0), at(2, 0.0)]);
        view.push(2, &[at(1, 100.0), at(2, 1.0)]);
        let shown = view.shown(3.5);
        assert_eq!(shown[0].position.x, 100.0, "jumped, not slid across");
        assert!((shown[1].position.x - 0.5).abs() < 1e-6);
        view.push(3, &[at(2, 2.0)]);
        assert_eq!(view.shown(5.0).len(), 1, "player 1 left");
    }

    #[test]
    fn headings_turn_the_short_way() {
        let a = 0.1;
        let b = std::f32::consts::TAU - 0.1;
        let mid = lerp_angle(a, b, 0.5);
        assert!(mid.abs() < 1e-5, "through zero, not through pi: {mid}");
    }
}
