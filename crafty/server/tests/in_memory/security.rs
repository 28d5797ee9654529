//! What a hostile or broken client can do to the server: an oversized, a
//! malformed or a flood of messages disconnects that client only; a name
//! is its owner's (the token proves it); an edit out of reach is refused;
//! another protocol version is told so. The others keep playing, and a
//! player who leaves comes back where they were.

use crafty_client::bot::Bot;
use crafty_net::protocol::{
    ClientMessage, EditAction, MAX_CLIENT_MESSAGE, PROTOCOL_VERSION, Refusal,
};
use crafty_net::{Conditions, Link, MemoryLink, MemoryNet};
use crafty_server::{Server, ServerConfig};
use glam::IVec3;

use super::yard::Yard as World;

#[test]
fn bad_messages_disconnect_their_sender_only() {
    let mut world = World::new();
    let mut good = world.join("good", None);
    let mut oversized = world.join("big", None);
    let mut garbled = world.join("garbled", None);
    let mut flooder = world.join("flood", None);
    world.run(
        &mut [&mut good, &mut oversized, &mut garbled, &mut flooder],
        5,
    );
    assert_eq!(world.server.players(), 4);

    oversized
        .link
        .send(vec![1; MAX_CLIENT_MESSAGE + 1])
        .unwrap();
    garbled.link.send(vec![250, 1, 2, 3]).unwrap();
    for _ in 0..200 {
        flooder.send_flags(0);
    }
    world.run(&mut [&mut good], 3);
    for bot in [&mut oversized, &mut garbled, &mut flooder] {
        bot.receive();
        let reason = bot.goodbye.clone().unwrap_or_default();
        assert!(!reason.is_empty(), "{} was told why", bot.name);
        assert!(bot.link.is_closed());
    }
    assert!(flooder.goodbye.as_deref().unwrap().contains("too many"));
    assert!(oversized.goodbye.as_deref().unwrap().contains("limit"));
    assert_eq!(world.server.players(), 1);
    let before = good.feet().unwrap();
    world.run(&mut [&mut good], 20);
    assert!(good.goodbye.is_none());
    assert!(
        good.feet().unwrap().distance(before) > 1.0,
        "the good one plays on"
    );
}

#[test]
fn a_name_belongs_to_whoever_holds_its_token() {
    let mut world = World::new();
    let mut ada = world.join("ada", None);
    world.run(&mut [&mut ada], 30);
    let token = ada.token.expect("a token on first join");
    let feet = ada.feet().unwrap();

    // Someone else, without the token: refused; with the wrong one: refused.
    let mut thief = world.join("ada", None);
    let mut guesser = world.join("ada", Some(crafty_net::Token([0; 16])));
    world.run(&mut [&mut thief, &mut guesser], 2);
    assert!(matches!(
        thief.refused,
        Some(Refusal::NameTaken | Refusal::AlreadyPlaying)
    ));
    assert!(matches!(
        guesser.refused,
        Some(Refusal::NameTaken | Refusal::AlreadyPlaying)
    ));

    // Ada leaves; her token brings her back where she stood.
    ada.link.close();
    world.run(&mut [], 2);
    assert_eq!(world.server.players(), 0);
    let mut thief = world.join("ada", None);
    world.run(&mut [&mut thief], 2);
    assert_eq!(thief.refused, Some(Refusal::NameTaken));
    let mut back = world.join("ada", Some(token));
    world.run(&mut [&mut back], 1);
    assert!(back.refused.is_none());
    let again = back.feet().unwrap();
    assert!(
        again.distance(feet) < 0.5,
        "back at {again}, left at {feet}"
    );
    // And nobody can be her twice.
    let mut twin = world.join("ada", Some(token));
    world.run(&mut [&mut twin], 1);
    assert_eq!(twin.refused, Some(Refusal::AlreadyPlaying));
}

#[test]
fn out_of_reach_and_impossible_edits_are_refused_and_shown_back() {
    let mut world = World::new();
    let mut ada = world.join("ada", None);
    world.run(&mut [&mut ada], 40);
    let feet = ada.feet().unwrap().floor().as_ivec3();
    let far = feet + IVec3::new(40, -1, 0);
    let bedrock = IVec3::new(feet.x, 0, feet.z);
    let inside_me = feet;
    let before = world.server.edits_made();
    ada.send_edit(far, EditAction::Break);
    ada.send_edit(bedrock, EditAction::Break);
    ada.send_edit(inside_me, EditAction::Place { block: 1 });
    ada.send_edit(feet + IVec3::new(1, 0, 0), EditAction::Place { block: 200 });
    world.run(&mut [&mut ada], 3);
    assert_eq!(ada.refused_edits, 4);
    assert_eq!(ada.pending_edits(), 0);
    assert_eq!(world.server.edits_made(), before, "nothing changed");
}

#[test]
fn another_protocol_version_is_told_so() {
    let mut world = World::new();
    let mut link = world.raw();
    let hello = ClientMessage::Hello {
        version: PROTOCOL_VERSION + 1,
        name: "future".to_owned(),
        token: None,
        view: 8,
    };
    link.send(hello.encode().unwrap()).unwrap();
    world.run(&mut [], 1);
    let answer = crafty_net::ServerMessage::decode(&link.receive().unwrap()).unwrap();
    assert_eq!(
        answer,
        crafty_net::ServerMessage::Refused(Refusal::VersionMismatch {
            server: PROTOCOL_VERSION,
            client: PROTOCOL_VERSION + 1,
        })
    );
    assert!(link.is_closed());
    // A first message that is not a hello.
    let mut link = world.raw();
    let chat = ClientMessage::Chat {
        text: "hi".to_owned(),
    };
    link.send(chat.encode().unwrap()).unwrap();
    world.run(&mut [], 1);
    let answer = crafty_net::ServerMessage::decode(&link.receive().unwrap()).unwrap();
    assert_eq!(answer, crafty_net::ServerMessage::Refused(Refusal::NoHello));
}

#[test]
fn a_full_server_turns_the_next_player_away_and_chat_reaches_everyone() {
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let mut server = Server::new(ServerConfig {
        max_players: 2,
        ..ServerConfig::default()
    });
    let mut bots: Vec<Bot> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            let (client, end) = net.connect();
            server.accept(end);
            Bot::join(name, client, None, 1)
        })
        .collect();
    for _ in 0..2 {
        for bot in &mut bots {
            bot.update(false);
        }
        server.tick();
    }
    assert_eq!(bots[2].refused, Some(Refusal::Full));
    let hello = ClientMessage::Chat {
        text: "hello there".to_owned(),
    };
    bots[0].link.send(hello.encode().unwrap()).unwrap();
    server.tick();
    for bot in &mut bots[..2] {
        bot.receive();
        assert_eq!(bot.chat, [("a".to_owned(), "hello there".to_owned())]);
    }
}

#[test]
fn edits_and_chat_are_rate_limited() {
    let mut world = World::new();
    let mut ada = world.join("ada", None);
    let mut bob = world.join("bob", None);
    world.run(&mut [&mut ada, &mut bob], 40);
    let feet = ada.feet().unwrap().floor().as_ivec3();
    // Sixty breaks in one tick (within the 32-message limit over two ticks):
    // the budget takes 20 a second.
    let mut targets = Vec::new();
    for dx in -3..=3 {
        for dz in -3..=3 {
            for dy in 1..=2 {
                targets.push(feet + IVec3::new(dx, -dy, dz));
            }
        }
    }
    for chunk in targets.chunks(30).take(2) {
        for &at in chunk {
            ada.send_edit(at, EditAction::Break);
        }
        world.run(&mut [&mut ada, &mut bob], 1);
    }
    world.run(&mut [&mut ada, &mut bob], 2);
    assert!(ada.goodbye.is_none(), "{:?}", ada.goodbye);
    assert!(
        ada.accepted.len() <= 22,
        "{} edits went through",
        ada.accepted.len()
    );
    assert!(ada.refused_edits >= 38, "{} refused", ada.refused_edits);
    // Chat: the second line in the same second is dropped.
    for text in ["one", "two"] {
        let line = ClientMessage::Chat {
            text: text.to_owned(),
        };
        ada.link.send(line.encode().unwrap()).unwrap();
    }
    world.run(&mut [&mut ada, &mut bob], 2);
    let heard: Vec<&str> = bob.chat.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(heard, ["one"]);
}

#[test]
fn survival_players_pay_for_what_they_place_and_keep_what_they_break() {
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let mut server: Server<MemoryLink> = Server::new(ServerConfig {
        mode: crafty_sim::inventory::GameMode::Survival,
        ..ServerConfig::default()
    });
    let (client, end) = net.connect();
    server.accept(end);
    let mut ada = Bot::join("ada", client, None, 2);
    let run = |ada: &mut Bot, server: &mut Server<MemoryLink>, ticks: usize| {
        for _ in 0..ticks {
            ada.update(false);
            server.tick();
        }
        ada.receive();
    };
    run(&mut ada, &mut server, 40);
    let feet = ada.feet().unwrap().floor().as_ivec3();
    let beside = feet + IVec3::new(2, 0, 0);
    // Placing with nothing in hand: refused.
    ada.send_edit(beside, EditAction::Place { block: 2 });
    run(&mut ada, &mut server, 2);
    assert_eq!(ada.refused_edits, 1, "nothing to place yet");
    // Break the ground beside: its drop goes to the inventory.
    let ground = feet + IVec3::new(2, -1, 0);
    let kind = server.world().block(ground);
    let drop = kind.drop().expect("the ground drops something");
    ada.send_edit(ground, EditAction::Break);
    run(&mut ada, &mut server, 2);
    assert_eq!(ada.accepted, [ground]);
    let record = &server.records()["ada"];
    assert!(
        record
            .inventory
            .stacks
            .iter()
            .any(|s| s.block_type == drop && s.count == 1)
    );
    // Place it back: accepted once, then there is none left.
    ada.send_edit(
        ground,
        EditAction::Place {
            block: u8::from(drop),
        },
    );
    ada.send_edit(
        beside,
        EditAction::Place {
            block: u8::from(drop),
        },
    );
    run(&mut ada, &mut server, 2);
    assert_eq!(ada.accepted, [ground, ground]);
    assert_eq!(ada.refused_edits, 2);
    assert!(
        server.records()["ada"]
            .inventory
            .stacks
            .iter()
            .all(|s| s.count == 0 || s.block_type != drop)
    );
}
