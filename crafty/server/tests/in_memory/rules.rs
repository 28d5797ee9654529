//! The server's rules for who comes in and how long they may stay, on the
//! manual clock (ticks, no sleeps): a hello is due within
//! `hello_timeout`, a player silent for `silence_timeout` is
//! disconnected, names are one player whatever their case, a full server
//! refuses before it says which names exist, chat loses the characters
//! that reorder text, tokens are random, and a client's tick numbers
//! near `u64::MAX` are numbers, not a panic.

use crafty_client::bot::Bot;
use crafty_net::protocol::{ClientMessage, PROTOCOL_VERSION, Refusal, ServerMessage, TickInput};
use crafty_net::{Link, MemoryLink};
use crafty_server::ServerConfig;

use super::yard::Yard;

fn messages(link: &mut MemoryLink) -> Vec<ServerMessage> {
    std::iter::from_fn(|| link.receive())
        .map(|bytes| ServerMessage::decode(&bytes).unwrap())
        .collect()
}

#[test]
fn a_connection_that_never_says_hello_is_closed_at_its_deadline() {
    let config = ServerConfig::default();
    let deadline = config.ticks(config.hello_timeout) as usize;
    let mut yard = Yard::with(config);
    let mut silent = yard.raw();
    yard.run_with(&mut [], &mut [], deadline - 2);
    assert_eq!(yard.server.connections(), 1, "still within its deadline");
    assert!(messages(&mut silent).is_empty());
    yard.run_with(&mut [], &mut [], 3);
    assert_eq!(yard.server.connections(), 0);
    assert_eq!(
        messages(&mut silent),
        [ServerMessage::Refused(Refusal::TooSlow)]
    );
    assert!(silent.is_closed());
}

#[test]
fn a_player_who_falls_silent_is_disconnected_and_the_others_play_on() {
    let config = ServerConfig::default();
    let silence = config.ticks(config.silence_timeout) as usize;
    let mut yard = Yard::with(config);
    let mut ada = yard.join("ada", None);
    let mut bob = yard.join("bob", None);
    yard.run_with(&mut [&mut ada, &mut bob], &mut [], 10);
    assert_eq!(yard.server.players(), 2);
    yard.run_with(&mut [&mut bob], &mut [&mut ada], silence - 5);
    assert_eq!(yard.server.players(), 2, "silent, not yet too long");
    yard.run_with(&mut [&mut bob], &mut [&mut ada], 10);
    assert_eq!(yard.server.players(), 1);
    let reason = ada.goodbye.clone().unwrap();
    assert!(reason.contains("nothing heard"), "{reason}");
    assert!(bob.goodbye.is_none());
}

#[test]
fn tick_numbers_near_the_end_of_u64_are_numbers_not_a_panic() {
    let mut yard = Yard::new();
    let mut link = yard.raw();
    let hello = ClientMessage::Hello {
        version: PROTOCOL_VERSION,
        name: "edge".to_owned(),
        token: None,
        view: 4,
    };
    link.send(hello.encode().unwrap()).unwrap();
    yard.run_with(&mut [], &mut [], 1);
    let mut ada = yard.join("ada", None);
    let tick = TickInput {
        flags: 0,
        yaw: 0.0,
        pitch: 0.0,
    };
    for last_tick in [u64::MAX, u64::MAX - 1, 5, u64::MAX] {
        let input = ClientMessage::Input {
            last_tick,
            ticks: vec![tick; 16],
            edits_seen: u64::MAX,
        };
        link.send(input.encode().unwrap()).unwrap();
        let edit = ClientMessage::Edit {
            seq: u32::MAX,
            at: [0, 40, 0],
            action: crafty_net::EditAction::Break,
            after_tick: u64::MAX,
        };
        link.send(edit.encode().unwrap()).unwrap();
        yard.run_with(&mut [&mut ada], &mut [], 8);
    }
    assert_eq!(yard.server.players(), 2, "both still play");
    assert!(ada.goodbye.is_none());
}

#[test]
fn a_name_is_one_player_whatever_its_case() {
    let mut yard = Yard::new();
    let mut ada = yard.join("Ada", None);
    yard.run_with(&mut [&mut ada], &mut [], 20);
    let token = ada.token.unwrap();
    let mut twin = yard.join("ADA", Some(token));
    yard.run_with(&mut [&mut ada], &mut [&mut twin], 1);
    assert_eq!(twin.refused, Some(Refusal::AlreadyPlaying));
    ada.leave();
    yard.run_with(&mut [], &mut [&mut ada], 3);
    let mut thief = yard.join("aDa", None);
    yard.run_with(&mut [], &mut [&mut thief], 1);
    assert_eq!(thief.refused, Some(Refusal::NameTaken));
    let mut back = yard.join("ada", Some(token));
    yard.run_with(&mut [&mut back], &mut [], 1);
    assert!(back.refused.is_none(), "{:?}", back.refused);
    assert_eq!(back.token, Some(token), "the same player");
    assert_eq!(yard.server.records().len(), 1);
}

#[test]
fn a_full_server_says_full_before_it_says_whose_name_it_is() {
    let config = ServerConfig {
        max_players: 1,
        ..ServerConfig::default()
    };
    let mut yard = Yard::with(config);
    let mut ada = yard.join("ada", None);
    yard.run_with(&mut [&mut ada], &mut [], 5);
    ada.leave();
    yard.run_with(&mut [], &mut [&mut ada], 3);
    let mut bob = yard.join("bob", None);
    yard.run_with(&mut [&mut bob], &mut [], 3);
    // "ada" exists, but a full server does not say so.
    let mut probe = yard.join("ada", None);
    yard.run_with(&mut [&mut bob], &mut [&mut probe], 1);
    assert_eq!(probe.refused, Some(Refusal::Full));
}

#[test]
fn chat_reaches_everyone_without_what_reorders_or_hides_text() {
    let mut yard = Yard::new();
    let mut ada = yard.join("ada", None);
    let mut bob = yard.join("bob", None);
    yard.run_with(&mut [&mut ada, &mut bob], &mut [], 5);
    ada.say("pay \u{202E}001\u{202C} now\u{200B}!");
    yard.run_with(&mut [&mut ada, &mut bob], &mut [], 2);
    assert_eq!(
        bob.chat.last(),
        Some(&("ada".to_owned(), "pay 001 now!".to_owned()))
    );
    // A line of nothing but format characters says nothing.
    yard.run_with(&mut [&mut ada, &mut bob], &mut [], 25);
    ada.say("\u{2066}\u{2069}");
    yard.run_with(&mut [&mut ada, &mut bob], &mut [], 2);
    assert_eq!(bob.chat.len(), 1);
}

#[test]
fn tokens_are_random_and_unrelated() {
    let mut tokens = Vec::new();
    for round in 0..2 {
        let mut yard = Yard::new();
        let mut bots: Vec<Bot> = (0..4).map(|i| yard.join(&format!("p{i}"), None)).collect();
        let mut refs: Vec<&mut Bot> = bots.iter_mut().collect();
        yard.run_with(&mut refs, &mut [], 2);
        tokens.extend(bots.iter().map(|b| (round, b.token.unwrap())));
    }
    for (i, (_, a)) in tokens.iter().enumerate() {
        assert_ne!(a.0, [0; 16]);
        for (_, b) in &tokens[i + 1..] {
            assert_ne!(a, b, "two players, one token");
            let same = a.0.iter().zip(b.0).filter(|(x, y)| **x == *y).count();
            assert!(same < 8, "tokens share {same} of 16 bytes");
        }
    }
}
