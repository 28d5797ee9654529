//! Edits: checked (reach, what is there, a body in the way, a survival
//! player's belongings), made after the input tick the client made them
//! after, answered by sequence number (a resent edit gets the same
//! answer), and sent to every client through the world's edit log.

use crafty_net::Link;
use crafty_net::protocol::{
    EDITS_PER_MESSAGE, EditAction, INPUT_WINDOW, LoggedEdit, ServerMessage,
};
use crafty_sim::inventory::GameMode;
use crafty_sim::player::{Body, REACH, inventory_state, restore_inventory};
use crafty_sim::step::StepWorld;
use crafty_sim::world::{BlockEdit, BlockType, World};
use glam::{IVec3, Vec3};
use taos_core::GameObject;
use taos_core::controllers::PlayerController;

use super::connection::Phase;
use super::{Server, TickReport};

/// Edits a player may have waiting for their tick; beyond it, an edit is
/// made when it arrives.
const MAX_QUEUED_EDITS: usize = 64;

/// The most edits a player makes per second (Minecraft digs far slower;
/// this stops a flood, not a fast builder).
pub const EDITS_PER_SECOND: f32 = 20.0;

/// Ticks to wait for a client's acknowledgement before sending edits again.
const EDIT_RESEND_TICKS: u64 = 10;
/// Edit answers kept per player for resent edits.
const ANSWERS_KEPT: usize = 256;

impl<L: Link> Server<L> {
    /// An edit made after the player's input tick `after_tick`: queued
    /// until that tick is stepped (so it lands where the client's
    /// prediction had it), or made now if that tick was stepped already,
    /// is far ahead, or too many wait.
    pub(super) fn edit_after(
        &mut self,
        index: usize,
        seq: u32,
        at: [i32; 3],
        action: EditAction,
        after_tick: u64,
        report: &mut TickReport,
    ) {
        let Phase::Playing(playing) = &mut self.connections[index].phase else {
            return;
        };
        let horizon = |next: u64| next.saturating_add(4 * INPUT_WINDOW as u64);
        let waits = !playing.answered.contains_key(&seq)
            && playing.queued.len() < MAX_QUEUED_EDITS
            && playing
                .next_tick
                .is_some_and(|next| after_tick >= next && after_tick < horizon(next));
        if waits {
            playing.queued.insert((after_tick, seq), (at, action));
        } else {
            self.edit(index, seq, at, action, report);
        }
    }

    /// Makes the edits of connection `index` that waited for its input up
    /// to the tick just stepped.
    pub(super) fn make_queued_edits(&mut self, index: usize, report: &mut TickReport) {
        let Phase::Playing(playing) = &mut self.connections[index].phase else {
            return;
        };
        let Some(stepped) = playing.next_tick.and_then(|next| next.checked_sub(1)) else {
            return;
        };
        let Some(after) = stepped.checked_add(1) else {
            // Stepped up to the last tick there is: everything is due.
            let due = std::mem::take(&mut playing.queued);
            for ((_, seq), (at, action)) in due {
                self.edit(index, seq, at, action, report);
            }
            return;
        };
        let later = playing.queued.split_off(&(after, 0));
        let due = std::mem::replace(&mut playing.queued, later);
        for ((_, seq), (at, action)) in due {
            self.edit(index, seq, at, action, report);
        }
    }

    pub(super) fn edit(
        &mut self,
        index: usize,
        seq: u32,
        at: [i32; 3],
        action: EditAction,
        report: &mut TickReport,
    ) {
        let Phase::Playing(playing) = &self.connections[index].phase else {
            return;
        };
        let object = playing.object;
        let pos = IVec3::from_array(at);
        if let Some(&accepted) = playing.answered.get(&seq) {
            // Sent again because the answer was lost: the same answer.
            let block = u8::from(self.world().block(pos));
            let log_len = self.log.len();
            self.connections[index].send(&ServerMessage::EditResult {
                seq,
                accepted,
                at,
                block,
                log_len,
            });
            return;
        }
        // A budget, refilled each tick: a client cannot dig faster than
        // EDITS_PER_SECOND however many edits it sends.
        let within_budget = match &mut self.connections[index].phase {
            Phase::Playing(playing) if playing.edit_budget >= 1.0 => {
                playing.edit_budget -= 1.0;
                true
            }
            _ => false,
        };
        let there = self.world().block(pos);
        let accepted = within_budget
            .then(|| self.check_edit(object, pos, action))
            .flatten()
            .filter(|&block| self.pay_for_edit(index, there, block));
        if let Some(block) = accepted {
            let world = &mut self.scene.world_mut().resource_mut::<StepWorld>().0;
            if world.set_block(pos, block).is_err() {
                return self.answer_edit(index, seq, pos, false, report);
            }
            self.log.push(BlockEdit::new(pos, block));
        }
        self.answer_edit(index, seq, pos, accepted.is_some(), report);
    }

    /// The block an edit puts at `pos`, or `None` when it is refused.
    pub(super) fn check_edit(
        &self,
        object: GameObject,
        pos: IVec3,
        action: EditAction,
    ) -> Option<BlockType> {
        let body = self
            .scene
            .behaviour::<PlayerController>(object)
            .map(|c| Body::of_motor(&c.motor))?;
        let centre = pos.as_vec3() + Vec3::splat(0.5);
        // Reach is to the block's nearest point, as the client's ray sees it.
        if body.eye().distance(centre) > REACH + 0.87 {
            return None;
        }
        let world = self.world();
        let there = world.block(pos);
        match action {
            EditAction::Break => {
                // The bottom layer is bedrock, as in single player.
                (pos.y > 0 && !there.is_air() && there != BlockType::Water)
                    .then_some(BlockType::Air)
            }
            EditAction::Place { block } => {
                let block = BlockType::try_from(block).ok()?;
                let free = there.is_air() || there == BlockType::Water;
                let someone_there = self.connections.iter().any(|c| match &c.phase {
                    Phase::Playing(p) => self
                        .scene
                        .behaviour::<PlayerController>(p.object)
                        .is_some_and(|c| Body::of_motor(&c.motor).overlaps_block(pos)),
                    _ => false,
                });
                (free && !block.is_air() && !someone_there && World::contains(pos)).then_some(block)
            }
        }
    }

    /// A survival player's belongings for an edit: a break gives what the
    /// block drops, a place takes one block of its type (refused without
    /// one). Creative players pay nothing. The record is updated.
    pub(super) fn pay_for_edit(
        &mut self,
        index: usize,
        there: BlockType,
        block: BlockType,
    ) -> bool {
        let Phase::Playing(playing) = &self.connections[index].phase else {
            return false;
        };
        let Some(record) = self.records.get_mut(&playing.key) else {
            return false;
        };
        if record.mode != GameMode::Survival {
            return true;
        }
        let (mut inventory, mut hotbar) = restore_inventory(&record.inventory);
        if block.is_air() {
            if let Some(drop) = there.drop() {
                inventory.add(drop, 1);
                hotbar.assign_if_new(drop);
            }
        } else if inventory.take_one(block) {
            hotbar.clear_missing(&inventory);
        } else {
            return false;
        }
        record.inventory = inventory_state(&inventory, &hotbar);
        true
    }

    pub(super) fn answer_edit(
        &mut self,
        index: usize,
        seq: u32,
        pos: IVec3,
        accepted: bool,
        report: &mut TickReport,
    ) {
        let block = u8::from(self.world().block(pos));
        let log_len = self.log.len();
        let at = pos.to_array();
        let connection = &mut self.connections[index];
        if let Phase::Playing(playing) = &mut connection.phase {
            playing.answered.insert(seq, accepted);
            while playing.answered.len() > ANSWERS_KEPT {
                playing.answered.pop_first();
            }
        }
        connection.send(&ServerMessage::EditResult {
            seq,
            accepted,
            at,
            block,
            log_len,
        });
        // Everyone (this client too) gets the edit through the log.
        if accepted {
            report.edits += 1;
            if let Phase::Playing(playing) = &self.connections[index].phase {
                self.dirty.insert(playing.key.clone());
            }
        } else {
            report.refused_edits += 1;
            self.send_inventory(index);
        }
    }

    /// Sends a survival player their belongings as the record has them.
    pub(super) fn send_inventory(&mut self, index: usize) {
        let Phase::Playing(playing) = &self.connections[index].phase else {
            return;
        };
        let Some(record) = self.records.get(&playing.key) else {
            return;
        };
        if record.mode != GameMode::Survival {
            return;
        }
        let state = &record.inventory;
        let message = ServerMessage::Inventory {
            stacks: state
                .stacks
                .iter()
                .map(|s| (u8::from(s.block_type), s.count))
                .collect(),
            hotbar: state.hotbar.iter().map(|slot| slot.map(u8::from)).collect(),
        };
        self.connections[index].send(&message);
    }

    /// Sends each client the edit-log entries it has not been sent, and
    /// what it has not acknowledged again after [`EDIT_RESEND_TICKS`]. A
    /// client so far behind that the server no longer holds what it lacks
    /// is disconnected (it rejoins with the chunks instead).
    pub(super) fn send_edits(&mut self, report: &mut TickReport) {
        let logged = self.log.len();
        let mut behind = Vec::new();
        for (index, connection) in self.connections.iter_mut().enumerate() {
            let Phase::Playing(playing) = &mut connection.phase else {
                continue;
            };
            let from = if playing.edits_sent < logged {
                playing.edits_sent.max(playing.edits_seen)
            } else if playing.edits_seen < logged
                && self.tick >= playing.edits_sent_at.saturating_add(EDIT_RESEND_TICKS)
            {
                playing.edits_seen
            } else {
                continue;
            };
            let to = logged.min(from.saturating_add(EDITS_PER_MESSAGE as u64));
            let Some(entries) = self.log.entries(from, to) else {
                behind.push(index);
                continue;
            };
            let edits = entries
                .iter()
                .map(|edit| LoggedEdit {
                    at: edit.pos().to_array(),
                    block: u8::from(edit.block),
                })
                .collect();
            playing.edits_sent = playing.edits_sent.max(to);
            playing.edits_sent_at = self.tick;
            connection.send(&ServerMessage::Edits { first: from, edits });
        }
        for index in behind {
            self.kick(
                index,
                "too far behind the world's edits: join again",
                report,
            );
        }
    }
}
