//! Gamepads through the loop: button edges per tick like keys, hot-plug
//! (a pad unplugged mid-press lets go), axes bound to actions with a
//! threshold and read as analog strength, and pad input replayed bit for bit.

use taos_core::game_loop::{
    ActionMapper, Actions, AxisSide, Bindings, GameAction, Input, InputEvent, PadAxis, PadButton,
    PresentOn, Recording,
};
use taos_core::prelude::*;

mod common;
use common::{fixed, started};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Jump,
    Forward,
    Back,
}

impl GameAction for Act {
    fn bit(self) -> u8 {
        self as u8
    }
}

fn bindings() -> Bindings<Act> {
    Bindings::new()
        .pad(PadButton::South, Act::Jump)
        .axis(PadAxis::LeftY, AxisSide::Positive, Act::Forward)
        .axis(PadAxis::LeftY, AxisSide::Negative, Act::Back)
}

#[test]
fn a_pad_tap_between_two_ticks_reaches_exactly_one_tick() {
    let mut input = Input::default();
    input.push(InputEvent::PadConnected { pad: 0 });
    input.push(InputEvent::PadDown {
        pad: 0,
        button: PadButton::South,
    });
    input.push(InputEvent::PadUp {
        pad: 0,
        button: PadButton::South,
    });
    input.begin_tick();
    assert!(input.pad_just_pressed(PadButton::South));
    assert!(input.pad_just_released(PadButton::South));
    assert!(input.pad_down_in_tick(PadButton::South) && !input.pad_pressed(PadButton::South));
    assert!(input.any_press());
    input.begin_tick();
    assert!(!input.pad_down_in_tick(PadButton::South) && !input.any_press());
}

#[test]
fn unplugging_a_pad_releases_its_buttons_and_centres_its_sticks() {
    let mut input = Input::default();
    for pad in [3, 8] {
        input.push(InputEvent::PadConnected { pad });
    }
    input.push(InputEvent::PadDown {
        pad: 3,
        button: PadButton::RightTrigger,
    });
    input.push(InputEvent::PadAxis {
        pad: 3,
        axis: PadAxis::LeftX,
        value: 1.0,
    });
    input.begin_tick();
    assert_eq!(input.pads().collect::<Vec<_>>(), [3, 8]);
    assert!(input.pad_pressed(PadButton::RightTrigger));
    assert_eq!(input.left_stick(), Vec2::new(1.0, 0.0));

    input.push(InputEvent::PadDisconnected { pad: 3 });
    input.begin_tick();
    assert_eq!(input.pads().collect::<Vec<_>>(), [8]);
    assert!(input.pad_just_released(PadButton::RightTrigger));
    assert!(!input.pad_pressed(PadButton::RightTrigger));
    assert_eq!(
        input.left_stick(),
        Vec2::ZERO,
        "the unplugged stick no longer pushes"
    );
    assert_eq!(input.pad_axis_raw(3, PadAxis::LeftX), None);

    // Plugged back in (a new id, as platforms do): it works at once.
    input.push(InputEvent::PadAxis {
        pad: 9,
        axis: PadAxis::LeftX,
        value: -0.5,
    });
    input.begin_tick();
    assert!(input.left_stick().x < -0.3);
}

#[test]
fn focus_loss_releases_held_pad_buttons_too() {
    let mut input = Input::default();
    input.push(InputEvent::PadDown {
        pad: 1,
        button: PadButton::LeftBumper,
    });
    input.begin_tick();
    let releases = input.releases_of_held();
    assert_eq!(
        releases,
        [InputEvent::PadUp {
            pad: 1,
            button: PadButton::LeftBumper
        }]
    );
}

#[test]
fn axes_turn_actions_on_past_the_threshold_and_read_as_analog_strength() {
    let mut map = bindings();
    let mut input = Input::default();
    let push_y = |input: &mut Input, value: f32| {
        input.push(InputEvent::PadAxis {
            pad: 0,
            axis: PadAxis::LeftY,
            value,
        });
        input.begin_tick();
    };
    push_y(&mut input, 0.1);
    assert_eq!(
        map.strength(&input, Act::Forward),
        0.0,
        "inside the dead zone"
    );
    push_y(&mut input, 0.4);
    let half = map.strength(&input, Act::Forward);
    assert!(half > 0.2 && half < 0.4, "{half}");
    let flags = map.map(&input);
    assert!(
        !Actions {
            current: flags,
            ..Actions::default()
        }
        .held(Act::Forward)
    );
    push_y(&mut input, 0.9);
    let flags = map.map(&input);
    let actions = Actions {
        current: flags,
        ..Actions::default()
    };
    assert!(actions.held(Act::Forward) && !actions.held(Act::Back));
    push_y(&mut input, -1.0);
    let actions = Actions {
        current: map.map(&input),
        ..Actions::default()
    };
    assert!(actions.held(Act::Back) && !actions.held(Act::Forward));
    assert!((map.strength(&input, Act::Back) - 1.0).abs() < 1e-6);
    input.push(InputEvent::PadDown {
        pad: 0,
        button: PadButton::South,
    });
    input.begin_tick();
    assert_eq!(map.strength(&input, Act::Jump), 1.0);
}

#[test]
fn rebinding_moves_a_pad_button_from_one_action_to_another() {
    let mut map = bindings();
    map.set_pad_buttons(Act::Forward, &[PadButton::South]);
    assert_eq!(map.pad_buttons_for(Act::Jump).count(), 0);
    assert_eq!(
        map.pad_buttons_for(Act::Forward).collect::<Vec<_>>(),
        [PadButton::South]
    );
}

/// Moves its object by the left stick and counts South presses.
struct PadMover;

impl Behaviour for PadMover {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let input = cx.resource::<Input>();
        let stick = input.left_stick();
        let jumps = input.pad_just_pressed(PadButton::South);
        let mut t = cx.transform_mut();
        t.position.x += stick.x * dt;
        t.position.z -= stick.y * dt;
        t.position.y += f32::from(u8::from(jumps));
        Ok(())
    }
}

#[test]
fn pad_input_replays_bit_for_bit() {
    let build = || {
        let mut scene = Scene::new();
        let o = scene.spawn("O");
        scene.add_behaviour(o, PadMover).unwrap();
        started(scene, fixed(60, PresentOn::Tick)).0
    };
    let mut game = build();
    game.start_recording(11).unwrap();
    game.push_input(InputEvent::PadConnected { pad: 0 });
    for i in 0..40u32 {
        game.push_input(InputEvent::PadAxis {
            pad: 0,
            axis: PadAxis::LeftX,
            value: (i as f32 * 0.37).sin(),
        });
        if i % 9 == 0 {
            game.push_input(InputEvent::PadDown {
                pad: 0,
                button: PadButton::South,
            });
            game.push_input(InputEvent::PadUp {
                pad: 0,
                button: PadButton::South,
            });
        }
        if i == 30 {
            game.push_input(InputEvent::PadDisconnected { pad: 0 });
        }
        game.step();
    }
    let expected = game.state_checksum();
    let recording = Recording::from_bytes(&game.take_recording().unwrap().to_bytes()).unwrap();
    let mut replay = build();
    replay.replay(recording).unwrap();
    while replay.replay_remaining().is_some_and(|left| left > 0) {
        replay.step();
    }
    assert_eq!(replay.tick_count(), 40);
    assert_eq!(replay.state_checksum(), expected);
}
