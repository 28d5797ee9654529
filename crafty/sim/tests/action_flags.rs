//! Action flags round-trip: every representable input packs into 32 bits and
//! unpacks unchanged; every 32-bit word unpacks into something that packs back
//! to its meaningful bits.

use crafty_sim::player::{ActionFlagsExt, Buttons, Movement, Pitch, PlayerActions, Yaw};
use proptest::prelude::*;
use taos_core::game_loop::ActionFlags;

fn yaw() -> impl Strategy<Value = Yaw> {
    prop_oneof![
        (0u8..128).prop_map(Yaw::Absolute),
        any::<[bool; 5]>().prop_map(|b| Yaw::Relative {
            turn_left: b[0],
            turn_right: b[1],
            sidestep_dont_turn: b[2],
            look_left: b[3],
            look_right: b[4],
        }),
    ]
}

fn pitch() -> impl Strategy<Value = Pitch> {
    prop_oneof![
        (0u8..32).prop_map(Pitch::Absolute),
        any::<[bool; 3]>().prop_map(|b| Pitch::Relative {
            look_up: b[0],
            look_down: b[1],
            look_center: b[2],
        }),
    ]
}

fn movement() -> impl Strategy<Value = Movement> {
    prop_oneof![
        (0u8..128).prop_map(Movement::Absolute),
        any::<[bool; 4]>().prop_map(|b| Movement::Relative {
            forward: b[0],
            backward: b[1],
            run: b[2],
            look_dont_turn: b[3],
        }),
    ]
}

fn buttons() -> impl Strategy<Value = Buttons> {
    any::<[bool; 10]>().prop_map(|b| Buttons {
        sidestep_left: b[0],
        sidestep_right: b[1],
        primary: b[2],
        secondary: b[3],
        action: b[4],
        next_weapon: b[5],
        previous_weapon: b[6],
        toggle_map: b[7],
        microphone: b[8],
        swim: b[9],
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn actions_round_trip_through_32_bits(
        yaw in yaw(), pitch in pitch(), movement in movement(), buttons in buttons()
    ) {
        let actions = PlayerActions { yaw, pitch, movement, buttons };
        prop_assert_eq!(actions.encode().decode(), actions);
    }

    #[test]
    fn any_word_decodes_to_its_meaningful_bits(word in any::<u32>()) {
        let flags = ActionFlags(word);
        let again = flags.decode().encode();
        prop_assert_eq!(again.0, word & flags.meaningful_bits());
        prop_assert_eq!(again.decode(), flags.decode());
    }
}
