//! Typed text through the loop: characters pushed between two ticks reach
//! exactly the next tick, in order, without control characters, and a
//! recording replays them exactly.

use taos_core::game_loop::{Input, InputEvent, Key, MAX_TEXT_PER_TICK, PresentOn, Recording};
use taos_core::prelude::*;

mod common;
use common::{fixed, started};

#[test]
fn text_typed_between_two_ticks_reaches_exactly_the_next_tick() {
    let mut input = Input::default();
    for c in "Hé\u{8}llo\r 世界".chars() {
        input.push(InputEvent::Text(c));
    }
    // Keys and text are separate: the key is an edge, the text is characters.
    input.push(InputEvent::KeyDown(Key::Backspace));
    assert_eq!(input.text(), "", "nothing before the tick");
    input.begin_tick();
    assert_eq!(
        input.text(),
        "Héllo 世界",
        "in order, control characters dropped"
    );
    assert!(input.just_pressed(Key::Backspace));
    input.begin_tick();
    assert_eq!(input.text(), "", "one tick only");
}

#[test]
fn a_flood_of_text_keeps_the_first_characters() {
    let mut input = Input::default();
    for _ in 0..MAX_TEXT_PER_TICK + 100 {
        input.push(InputEvent::Text('x'));
    }
    input.begin_tick();
    assert_eq!(input.text().chars().count(), MAX_TEXT_PER_TICK);
}

/// Everything the ticks saw typed.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
struct Typed(String);

struct Typist;

impl Behaviour for Typist {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        let text = cx.resource::<Input>().text().to_owned();
        cx.resource_mut::<Typed>().0.push_str(&text);
        Ok(())
    }
}

#[test]
fn typed_text_replays_exactly() {
    let build = || {
        let mut scene = Scene::new();
        scene.world_mut().insert_resource(Typed::default());
        let o = scene.spawn("Typist");
        scene.add_behaviour(o, Typist).unwrap();
        started(scene, fixed(60, PresentOn::Tick)).0
    };
    let mut game = build();
    game.start_recording(3).unwrap();
    for (i, word) in ["ni", "", "hao ", "ça va", "", "🙂"].iter().enumerate() {
        for c in word.chars() {
            game.push_input(InputEvent::Text(c));
        }
        if i == 2 {
            game.push_input(InputEvent::KeyDown(Key::Enter));
        }
        game.step();
    }
    let typed = game.scene().world().resource::<Typed>().clone();
    assert_eq!(typed.0, "nihao ça va🙂");
    let recording = Recording::from_bytes(&game.take_recording().unwrap().to_bytes()).unwrap();
    let mut replay = build();
    replay.replay(recording).unwrap();
    while replay.replay_remaining().is_some_and(|left| left > 0) {
        replay.step();
    }
    assert_eq!(*replay.scene().world().resource::<Typed>(), typed);
}
