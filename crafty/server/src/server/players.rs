//! The players' bodies: input queued in each player's jitter buffer,
//! stepped one tick of credit at a time, and the states every client is
//! sent (its own body, and the others within [`VIEW_DISTANCE`]).

use std::collections::BTreeMap;

use crafty_net::Link;
use crafty_net::protocol::{BodyState, INPUT_WINDOW, RemotePlayer, ServerMessage, TickInput};
use crafty_sim::save::PlayerState;
use crafty_sim::step::{NetInput, apply_input, body_of, origin_body, spawn_player};
use glam::Vec3;
use taos_core::GameObject;
use taos_core::controllers::PlayerController;

use super::connection::{MAX_CREDIT, Phase, Playing};
use super::edits::EDITS_PER_SECOND;
use super::{PlayerRecord, Server, TickReport};

/// How far away (metres) other players are sent to a client: five chunks,
/// beyond crafty's default view.
pub const VIEW_DISTANCE: f32 = 160.0;

impl<L: Link> Server<L> {
    /// Input for ticks up to `last_tick` (`ticks`, the last of them last),
    /// and the edit-log entries the client says it has: queued in the
    /// player's jitter buffer for [`step_players`](Self::step_players).
    pub(super) fn input(
        &mut self,
        index: usize,
        last_tick: u64,
        ticks: Vec<TickInput>,
        edits_seen: u64,
    ) {
        let logged = self.log.len();
        let Phase::Playing(playing) = &mut self.connections[index].phase else {
            return;
        };
        // Input may arrive out of order: the newest acknowledgement wins.
        playing.edits_seen = playing.edits_seen.max(edits_seen.min(logged));
        let first = last_tick.saturating_sub(ticks.len() as u64 - 1);
        if playing.next_tick.is_none() {
            // The first input: the credit saved while waiting for it
            // is dropped, so the jitter buffer starts with its whole
            // patience (a full credit would step the next late
            // input's tick without it).
            playing.next_tick = Some(first);
            playing.credit = 0;
        }
        let next = playing.next_tick.unwrap_or(first);
        // One tick is stepped per server tick whatever arrives:
        // sending more input does not move a player faster. Ticks
        // far ahead are dropped (a client cannot queue the future).
        let horizon = next.saturating_add(4 * INPUT_WINDOW as u64);
        for (tick, input) in (first..=last_tick).zip(ticks) {
            if tick >= next && tick < horizon {
                playing.pending.insert(tick, input);
            }
        }
    }

    /// Steps every player by the input ticks it has, a jitter buffer with
    /// credit: each server tick gives a player one tick of credit (at most
    /// [`MAX_CREDIT`]); a tick of credit steps one tick of its input. A
    /// player whose next input has not arrived waits (its body holds still)
    /// until its credit is full, then steps without input; when the late
    /// input arrives it is stepped with the credit saved, up to
    /// [`MAX_CREDIT`] ticks in one server tick. So late input is not lost
    /// to a "stand still" step, and sending more input never steps a player
    /// more than one tick per server tick on average.
    pub(super) fn step_players(&mut self, report: &mut TickReport) {
        let dt = 1.0 / self.config.tick_hz as f32;
        let refill = EDITS_PER_SECOND / self.config.tick_hz as f32;
        for connection in &mut self.connections {
            if let Phase::Playing(playing) = &mut connection.phase {
                playing.credit = (playing.credit + 1).min(MAX_CREDIT);
                playing.edit_budget = (playing.edit_budget + refill).min(EDITS_PER_SECOND);
            }
        }
        for _round in 0..MAX_CREDIT {
            let mut stepped = Vec::new();
            for (index, connection) in self.connections.iter_mut().enumerate() {
                let Phase::Playing(playing) = &mut connection.phase else {
                    continue;
                };
                let step = playing.take_step();
                match step {
                    Some(Some(input)) => apply_input(&mut self.scene, playing.object, input),
                    Some(None) => {
                        let _ = self.scene.add_component(playing.object, NetInput(0));
                    }
                    None => {}
                }
                if step.is_some() {
                    stepped.push(index);
                }
                if self.scene.is_enabled(playing.object) != Some(step.is_some()) {
                    let _ = self.scene.set_enabled(playing.object, step.is_some());
                }
            }
            if stepped.is_empty() {
                break;
            }
            self.scene.tick(dt);
            for index in stepped {
                self.make_queued_edits(index, report);
            }
        }
    }

    pub(super) fn send_states(&mut self) {
        let players: Vec<(u32, GameObject)> = self
            .connections
            .iter()
            .filter_map(|c| match &c.phase {
                Phase::Playing(p) => Some((p.player, p.object)),
                _ => None,
            })
            .collect();
        // In player order: the same state bytes in every run.
        let bodies: BTreeMap<u32, BodyState> = players
            .iter()
            .map(|&(player, object)| (player, self.body_state(object)))
            .collect();
        for connection in &mut self.connections {
            let Phase::Playing(playing) = &connection.phase else {
                continue;
            };
            let here = Vec3::from_array(bodies[&playing.player].position);
            let others = bodies
                .iter()
                .filter(|(id, body)| {
                    **id != playing.player
                        && here.distance(Vec3::from_array(body.position)) <= VIEW_DISTANCE
                })
                .map(|(&player, body)| RemotePlayer {
                    player,
                    position: body.position,
                    yaw: body.yaw,
                })
                .collect();
            let state = ServerMessage::State {
                tick: self.tick,
                input_tick: playing.next_tick.map_or(0, |t| t.saturating_sub(1)),
                you: bodies[&playing.player],
                others,
            };
            connection.send(&state);
        }
    }

    pub(super) fn body_state(&self, object: GameObject) -> BodyState {
        body_of(&self.scene, object).unwrap_or_else(origin_body)
    }

    pub(super) fn spawn_player(&mut self, name: &str, record: &PlayerRecord) -> GameObject {
        let state = record.state;
        spawn_player(
            &mut self.scene,
            name,
            Vec3::new(state.x, state.y, state.z),
            (state.yaw, state.pitch),
            record.mode,
            self.config.tick_hz,
        )
    }

    pub(super) fn record_of(&self, playing: &Playing) -> Option<PlayerRecord> {
        let controller = self.scene.behaviour::<PlayerController>(playing.object)?;
        let mut record = self.records.get(&playing.key)?.clone();
        record.last_seen = self.tick;
        let feet = controller.motor.position;
        record.state = PlayerState {
            x: feet.x,
            y: feet.y,
            z: feet.z,
            yaw: controller.yaw,
            pitch: controller.pitch,
        };
        Some(record)
    }

    /// Where a connected player's feet are.
    #[must_use]
    pub fn position_of(&self, name: &str) -> Option<Vec3> {
        let key = super::record_key(name);
        self.connections.iter().find_map(|c| match &c.phase {
            Phase::Playing(p) if p.key == key => self
                .scene
                .behaviour::<PlayerController>(p.object)
                .map(|controller| controller.motor.position),
            _ => None,
        })
    }
}
