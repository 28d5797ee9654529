//! A key tap lasting one frame, at every phase of the frame grid against the
//! tick grid, for every frame rate from 30 to 240 fps against 30, 60 and
//! 64 Hz fixed ticks: exactly one press, seen by exactly one tick, both as
//! raw input and through a game's bindings. Manual clock only.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use taos_core::game_loop::{
    Actions, Bindings, GameAction, GameLoop, Input, InputEvent, Key, ManualClock, PresentOn, Rate,
};
use taos_core::prelude::*;

mod common;
use common::fixed;

#[derive(Clone, Copy)]
struct Jump;

impl GameAction for Jump {
    fn bit(self) -> u8 {
        0
    }
}

/// What the ticks saw of the tap.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Seen {
    /// Presses counted over all ticks.
    presses: u32,
    /// Ticks that saw at least one press.
    ticks_with_press: u32,
    /// Releases counted over all ticks.
    releases: u32,
    /// Ticks in which the bound action came on.
    action_presses: u32,
    /// Ticks run.
    ticks: u32,
}

struct Watch(Arc<Mutex<Seen>>);

impl Behaviour for Watch {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        let (presses, released) = {
            let input = cx.world().resource::<Input>();
            (
                input.press_count(Key::Space),
                input.just_released(Key::Space),
            )
        };
        let action = cx.world().resource::<Actions>().just_pressed(Jump);
        let mut seen = self.0.lock().unwrap();
        seen.presses += presses;
        seen.ticks_with_press += u32::from(presses > 0);
        seen.releases += u32::from(released);
        seen.action_presses += u32::from(action);
        seen.ticks += 1;
        // Keep the loop busy: a settled scene would auto-pause.
        cx.position_mut().x += 1.0;
        Ok(())
    }
}

/// Runs one tap: the loop's frames start `phase` into the tick grid and
/// come every `frame`; the key goes down before frame 2 and up before
/// frame 3, then the loop runs two ticks' worth of frames more.
fn tap(tick_hz: u32, frame: Duration, phase: Duration) -> Seen {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut scene = Scene::new();
    let watcher = scene.spawn("Watcher");
    scene.add_behaviour(watcher, Watch(seen.clone())).unwrap();
    let clock = ManualClock::new();
    let mut game = GameLoop::new(scene, fixed(tick_hz, PresentOn::Tick), clock.clone()).unwrap();
    game.set_action_mapper(Bindings::new().key(Key::Space, Jump));
    game.on_clock();
    clock.advance(phase);
    game.on_clock();
    let tick = Rate::hz(tick_hz).unwrap().interval();
    let frames_after = 3 + (2 * tick.as_nanos() / frame.as_nanos()) as u32;
    for index in 0..3 + frames_after {
        match index {
            2 => game.push_input(InputEvent::KeyDown(Key::Space)),
            3 => game.push_input(InputEvent::KeyUp(Key::Space)),
            _ => {}
        }
        clock.advance(frame);
        game.on_clock();
    }
    *seen.lock().unwrap()
}

#[test]
fn a_one_frame_tap_is_one_press_in_one_tick_at_every_rate_and_phase() {
    const PHASES: u32 = 16;
    let mut runs = 0;
    for tick_hz in [30, 60, 64] {
        let tick = Rate::hz(tick_hz).unwrap().interval();
        for fps in 30..=240u32 {
            let frame = Duration::from_nanos(1_000_000_000 / u64::from(fps));
            for step in 0..PHASES {
                let phase = tick * step / PHASES;
                let seen = tap(tick_hz, frame, phase);
                let what = format!("{fps} fps, {tick_hz} Hz ticks, phase {step}/{PHASES}");
                assert!(seen.ticks > 0, "{what}: no tick ran");
                assert_eq!(
                    (seen.presses, seen.ticks_with_press, seen.releases),
                    (1, 1, 1),
                    "{what}: {seen:?}"
                );
                assert_eq!(seen.action_presses, 1, "{what}: {seen:?}");
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 3 * 211 * PHASES);
}
