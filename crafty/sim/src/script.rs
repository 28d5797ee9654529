//! Input scripts: a few words that compile into a replay (one action-flags
//! word per tick), for tests, demos and trailers.
//!
//! ```
//! let recording = crafty_sim::script::compile("walk 30, turn-left 10, look-down 12, break, wait 5, place", 42)?;
//! assert_eq!(recording.flags.len(), 30 + 10 + 12 + 2 + 5 + 2);
//! # Ok::<(), crafty_sim::script::ScriptError>(())
//! ```
//!
//! | step | ticks | does |
//! | --- | --- | --- |
//! | `walk N`, `back N` | N | forward / backward |
//! | `strafe-left N`, `strafe-right N` | N | sidestep |
//! | `turn-left N`, `turn-right N`, `look-up N`, `look-down N` | N | keyboard look (0.05 rad a tick) |
//! | `jump` | 1 | jump (rise when flying: `rise N`) |
//! | `rise N`, `sink N` | N | fly up / down |
//! | `break`, `place` | 2 | press the button for one tick, then release |
//! | `next`, `prev` | 1 | hotbar slot |
//! | `fly` | 1 | toggle flying (creative) |
//! | `wait N` | N | nothing |

use crate::player::{Buttons, Movement, Pitch, PlayerActions, Yaw};
use taos_core::game_loop::{ActionFlags, Rate, Recording};

use crate::game::TICK_HZ;

/// The longest script: an hour of ticks. A longer one is refused before
/// anything is allocated (a replay costs a word per tick).
pub const MAX_SCRIPT_TICKS: u64 = TICK_HZ as u64 * 3_600;

/// A script that does not parse; the message names the step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("script step {index} ({step:?}): {reason}")]
pub struct ScriptError {
    /// 1-based position of the step.
    pub index: usize,
    /// The step's text.
    pub step: String,
    /// What is wrong.
    pub reason: String,
}

/// Compiles `script` (comma- or newline-separated steps) into a replay at
/// crafty's tick rate, tagged with `seed`.
///
/// # Errors
/// [`ScriptError`] for an unknown step, a bad count, or a script longer
/// than [`MAX_SCRIPT_TICKS`].
pub fn compile(script: &str, seed: u64) -> Result<Recording, ScriptError> {
    let rate = Rate::hz(TICK_HZ).expect("crafty's tick rate is valid");
    let mut recording = Recording::new(seed, rate);
    let steps = script
        .split([',', '\n', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let mut ticks: u64 = 0;
    for (i, step) in steps.enumerate() {
        let error = |reason: String| ScriptError {
            index: i + 1,
            step: step.to_owned(),
            reason,
        };
        let mut words = step.split_whitespace();
        let verb = words.next().unwrap_or_default();
        let count = match words.next() {
            Some(n) => n
                .parse::<u32>()
                .map_err(|_| error(format!("{n:?} is not a tick count")))?,
            None => 1,
        };
        if words.next().is_some() {
            return Err(error("expected `verb [count]`".into()));
        }
        let mut actions = PlayerActions::default();
        let mut release_after = false;
        match verb {
            "walk" | "back" | "turn-left" | "turn-right" | "look-up" | "look-down" | "sink" => {
                set_motion(&mut actions, verb);
            }
            "strafe-left" => actions.buttons.sidestep_left = true,
            "strafe-right" => actions.buttons.sidestep_right = true,
            "jump" | "rise" => actions.buttons.swim = true,
            "break" => (actions.buttons.primary, release_after) = (true, true),
            "place" => (actions.buttons.secondary, release_after) = (true, true),
            "next" => actions.buttons.next_weapon = true,
            "prev" => actions.buttons.previous_weapon = true,
            "fly" => actions.buttons.toggle_map = true,
            "wait" => {}
            other => return Err(error(format!("unknown step {other:?}"))),
        }
        ticks += u64::from(count) * if release_after { 2 } else { 1 };
        if ticks > MAX_SCRIPT_TICKS {
            return Err(error(format!(
                "the script is longer than {MAX_SCRIPT_TICKS} ticks (an hour)"
            )));
        }
        let flags = actions.encode();
        for _ in 0..count {
            recording.flags.push(flags);
            if release_after {
                recording.flags.push(ActionFlags::NONE);
            }
        }
    }
    Ok(recording)
}

fn set_motion(actions: &mut PlayerActions, verb: &str) {
    let walk = |forward, backward, look_dont_turn| Movement::Relative {
        forward,
        backward,
        run: false,
        look_dont_turn,
    };
    let turn = |turn_left, turn_right| Yaw::Relative {
        turn_left,
        turn_right,
        sidestep_dont_turn: false,
        look_left: false,
        look_right: false,
    };
    let tilt = |look_up, look_down| Pitch::Relative {
        look_up,
        look_down,
        look_center: false,
    };
    match verb {
        "walk" => actions.movement = walk(true, false, false),
        "back" => actions.movement = walk(false, true, false),
        "sink" => actions.movement = walk(false, false, true),
        "turn-left" => actions.yaw = turn(true, false),
        "turn-right" => actions.yaw = turn(false, true),
        "look-up" => actions.pitch = tilt(true, false),
        _ => actions.pitch = tilt(false, true),
    }
    actions.buttons = Buttons::default();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::ActionFlagsExt as _;

    #[test]
    fn a_script_of_four_billion_ticks_is_refused_before_allocating() {
        let error = compile("walk 3, wait 4000000000", 1).unwrap_err();
        assert_eq!(error.index, 2, "{error}");
        assert!(error.reason.contains("an hour"), "{error}");
        let error = compile("wait 4000000, wait 4000000000", 1).unwrap_err();
        assert_eq!(error.index, 1, "{error}");
        let hour = compile(&format!("wait {MAX_SCRIPT_TICKS}"), 1).unwrap();
        assert_eq!(hour.flags.len() as u64, MAX_SCRIPT_TICKS);
    }

    #[test]
    fn steps_become_ticks() {
        let rec = compile("walk 3; break\nwait 2", 9).unwrap();
        assert_eq!(rec.seed, 9);
        assert_eq!(rec.flags.len(), 3 + 2 + 2);
        assert!(matches!(
            rec.flags[0].decode().movement,
            Movement::Relative { forward: true, .. }
        ));
        assert!(rec.flags[3].decode().buttons.primary);
        assert_eq!(rec.flags[4], ActionFlags::NONE);
    }

    #[test]
    fn mistakes_name_the_step() {
        let e = compile("walk 3, dance 2", 0).unwrap_err();
        assert_eq!(e.index, 2);
        assert!(e.to_string().contains("dance"));
        assert!(compile("walk many", 0).unwrap_err().reason.contains("many"));
    }
}
