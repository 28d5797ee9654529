//! The far view: level-of-detail terrain ([`crate::lod`]) beyond the near
//! chunks, out to the view distance.
//!
//! Every frame the tiles that cover the view are planned around the
//! camera's chunk column, nearest and most in front first; the missing ones
//! (and those an edit changed) go to the [`LodBuilder`]'s workers with the
//! edits in their columns; finished tiles are handed to the renderer,
//! fading in. A tile the plan no longer holds stays drawn until every tile
//! that replaces it is resident (then for the fade), so nothing pops or
//! opens a hole. The columns drawn from full chunks are those within the
//! near radius (the outer two rings of it once all four of their chunks are
//! meshed); the ring of chunks the world keeps loaded just beyond is hidden
//! under far terrain.

use std::collections::{HashMap, HashSet};

use glam::{IVec2, IVec3};

use crate::game::Game;
use crate::lod::{LodBuilder, LodTile, LodView, MAX_LOD_LEVEL, plan};
use crate::render::CraftyRenderHandle;
use crate::world::{CHUNK_SIZE, ChunkPos, Terrain, WORLD_CHUNKS_Y};

/// Far tiles being built at once at most (natively; on wasm32 a tile is
/// built inline, one a frame).
const FAR_IN_FLIGHT: usize = if cfg!(target_arch = "wasm32") { 1 } else { 8 };
/// Frames a replaced tile stays after its replacements arrived (their fade).
const RETIRE_FRAMES: u64 = crate::render::FAR_FADE_FRAMES + 1;
/// All four chunks of a column meshed.
const FULL_COLUMN: u8 = (1 << WORLD_CHUNKS_Y) - 1;

/// A tile on the GPU: its sections, and the bytes their quads take.
#[derive(Debug, Clone, Default)]
struct Resident {
    sections: Vec<i32>,
    bytes: usize,
}

/// What the far view holds, for a HUD or a bench.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FarStats {
    /// Tiles the view wants.
    pub planned: usize,
    /// Of those, resident.
    pub ready: usize,
    /// Tiles resident (replaced ones not yet retired included).
    pub resident: usize,
    /// Bytes of their quads (on the GPU; nothing of them is kept here).
    pub bytes: usize,
    /// Tiles being built.
    pub building: usize,
}

/// The far view of a session.
#[derive(Debug)]
pub(super) struct FarView {
    builder: LodBuilder,
    /// The view distance, chunks; at or within `near`, no far terrain.
    distance: i32,
    near: i32,
    plan: Vec<LodTile>,
    planned: HashSet<LodTile>,
    /// The camera's column, the radii and the eighth of the compass it
    /// looked towards when the plan was made.
    plan_key: Option<(IVec2, i32, i32, i32)>,
    replan: bool,
    resident: HashMap<LodTile, Resident>,
    /// Resident tiles an edit changed since they were built.
    stale: HashSet<LodTile>,
    /// Replaced tiles and the frame they go.
    retiring: HashMap<LodTile, u64>,
    frame: u64,
    edits_seen: usize,
    /// Which of each column's chunks are meshed (bit y).
    meshed: HashMap<IVec2, u8>,
    hidden: HashSet<IVec2>,
}

fn column_of(pos: ChunkPos) -> IVec2 {
    IVec2::new(pos.0.x, pos.0.z)
}

impl FarView {
    pub(super) fn new(terrain: Terrain, threads: usize) -> Self {
        Self {
            builder: LodBuilder::new(terrain, threads),
            distance: 0,
            near: 0,
            plan: Vec::new(),
            planned: HashSet::new(),
            plan_key: None,
            replan: true,
            resident: HashMap::new(),
            stale: HashSet::new(),
            retiring: HashMap::new(),
            frame: 0,
            edits_seen: 0,
            meshed: HashMap::new(),
            hidden: HashSet::new(),
        }
    }

    /// Sets the view distance and the near radius (both in chunks).
    pub(super) fn set_distances(&mut self, distance: i32, near: i32) {
        self.distance = distance;
        self.near = near;
        self.replan = true;
    }

    /// A world chunk's mesh arrived.
    pub(super) fn note_meshed(&mut self, pos: ChunkPos) {
        let bits = self.meshed.entry(column_of(pos)).or_default();
        let before = *bits;
        *bits |= 1 << pos.0.y;
        self.replan |= before != FULL_COLUMN && *bits == FULL_COLUMN;
    }

    /// A world chunk was unloaded.
    pub(super) fn note_unloaded(&mut self, pos: ChunkPos) {
        let column = column_of(pos);
        if let Some(bits) = self.meshed.get_mut(&column) {
            self.replan |= *bits == FULL_COLUMN;
            *bits &= !(1 << pos.0.y);
            if *bits == 0 {
                self.meshed.remove(&column);
            }
        }
    }

    pub(super) fn stats(&self) -> FarStats {
        FarStats {
            planned: self.plan.len(),
            ready: self
                .plan
                .iter()
                .filter(|t| self.resident.contains_key(t))
                .count(),
            resident: self.resident.len(),
            bytes: self.resident.values().map(|r| r.bytes).sum(),
            building: self.builder.in_flight(),
        }
    }

    /// One frame: plans the view around the player, queues what is missing
    /// or changed, hands finished tiles to `render` and retires replaced
    /// ones. With `wait`, builds every missing tile before returning and
    /// shows them at once (headless runs, screenshots).
    pub(super) fn update(&mut self, game: &Game, render: &CraftyRenderHandle, wait: bool) {
        self.frame += 1;
        if self.distance <= self.near {
            self.clear(render);
            return;
        }
        self.note_edits(game);
        self.replan_if_needed(game);
        self.request(game, if wait { usize::MAX } else { FAR_IN_FLIGHT });
        let done = if wait {
            self.builder.wait_all()
        } else {
            self.builder.poll()
        };
        for (_, mesh) in done {
            let tile = mesh.tile;
            if !self.planned.contains(&tile) {
                continue;
            }
            let fresh = !self.resident.contains_key(&tile);
            let mut resident = Resident {
                sections: Vec::with_capacity(mesh.sections.len()),
                bytes: mesh.bytes(),
            };
            for section in &mesh.sections {
                render.set_far_section(tile, section.index, &section.mesh, fresh && !wait);
                resident.sections.push(section.index);
            }
            if let Some(old) = self.resident.insert(tile, resident) {
                for gone in old
                    .sections
                    .iter()
                    .filter(|s| !mesh.sections.iter().any(|n| n.index == **s))
                {
                    render.remove_far_section(tile, *gone);
                }
            }
        }
        self.retire(render, wait);
        self.hide_covered_columns(render);
    }

    /// Marks resident tiles whose columns an edit changed since the last
    /// frame for rebuilding.
    fn note_edits(&mut self, game: &Game) {
        let edits = game.world.edits();
        if edits.len() < self.edits_seen {
            self.edits_seen = 0;
        }
        for edit in &edits[self.edits_seen..] {
            let (pos, _) = ChunkPos::of_block(IVec3::new(edit.x, 0, edit.z));
            let column = column_of(pos);
            for level in 0..=MAX_LOD_LEVEL {
                let tile = LodTile::containing(level, column);
                if self.resident.contains_key(&tile) {
                    self.stale.insert(tile);
                }
            }
        }
        self.edits_seen = edits.len();
    }

    fn replan_if_needed(&mut self, game: &Game) {
        let position = game.player.body.position;
        let (chunk, _) = ChunkPos::of_block(position.floor().as_ivec3());
        let center = column_of(chunk);
        let look = game.player.look_direction();
        let sector = (look.x.atan2(look.z) / std::f32::consts::TAU * 8.0).round() as i32;
        let key = (center, self.near, self.distance, sector);
        if !self.replan && self.plan_key == Some(key) {
            return;
        }
        let view = LodView {
            center,
            near: self.near,
            far: self.distance,
            eye: game.player.body.eye(),
            look,
        };
        let near = self.near;
        let meshed = &self.meshed;
        // The inner near chunks are always theirs (they appear as they are
        // meshed, as without a far view); the outer two rings of them are
        // far terrain until all four chunks of a column are meshed, so
        // walking outwards never opens a gap at the rim.
        self.plan = plan(&view, |column| {
            let d = (column - center).abs().max_element();
            d <= near - 2 || (d <= near && meshed.get(&column) == Some(&FULL_COLUMN))
        });
        self.planned = self.plan.iter().copied().collect();
        self.retiring.retain(|tile, _| !self.planned.contains(tile));
        self.plan_key = Some(key);
        self.replan = false;
    }

    /// Queues planned tiles that are missing or stale, keeping at most
    /// `in_flight` on the workers.
    fn request(&mut self, game: &Game, in_flight: usize) {
        let mut room = in_flight.saturating_sub(self.builder.in_flight());
        for &tile in &self.plan {
            if room == 0 {
                break;
            }
            let current = self.resident.contains_key(&tile) && !self.stale.contains(&tile);
            if current || self.builder.is_building(tile) {
                continue;
            }
            let min = tile.first_column() * CHUNK_SIZE as i32;
            let max = min + IVec2::splat(tile.chunks() * CHUNK_SIZE as i32 - 1);
            let edits = game.world.edited_in_columns(min, max);
            if self.builder.request(tile, edits, 0) {
                self.stale.remove(&tile);
                room -= 1;
            }
        }
    }

    /// Whether every planned tile over `tile`'s columns is resident.
    fn replaced(&self, tile: LodTile) -> bool {
        let waiting = |t: &LodTile| self.planned.contains(t) && !self.resident.contains_key(t);
        (0..=MAX_LOD_LEVEL).all(|level| {
            if level >= tile.level {
                !waiting(&LodTile::containing(level, tile.first_column()))
            } else {
                let per_side = 1 << (tile.level - level);
                let first = LodTile::containing(level, tile.first_column());
                (0..per_side).all(|dz| {
                    (0..per_side).all(|dx| {
                        !waiting(&LodTile {
                            level,
                            x: first.x + dx,
                            z: first.z + dz,
                        })
                    })
                })
            }
        })
    }

    fn retire(&mut self, render: &CraftyRenderHandle, wait: bool) {
        let candidates: Vec<LodTile> = self
            .resident
            .keys()
            .filter(|t| !self.planned.contains(t) && !self.retiring.contains_key(t))
            .copied()
            .collect();
        for tile in candidates {
            if self.replaced(tile) {
                // A level-0 tile whose column is drawn from its chunks now
                // goes at once (the same land: no fade, no overlap).
                let voxels =
                    tile.level == 0 && self.meshed.get(&tile.first_column()) == Some(&FULL_COLUMN);
                let at = if wait || voxels {
                    0
                } else {
                    self.frame + RETIRE_FRAMES
                };
                self.retiring.insert(tile, at);
            }
        }
        let frame = self.frame;
        let due: Vec<LodTile> = self
            .retiring
            .iter()
            .filter(|&(_, &at)| at <= frame)
            .map(|(&t, _)| t)
            .collect();
        for tile in due {
            self.retiring.remove(&tile);
            self.stale.remove(&tile);
            if let Some(old) = self.resident.remove(&tile) {
                for section in old.sections {
                    render.remove_far_section(tile, section);
                }
            }
        }
    }

    /// Hides the loaded chunks that a resident tile of the plan covers (far
    /// terrain is drawn there instead): beyond the near radius, and columns
    /// of its rim not meshed in full yet.
    fn hide_covered_columns(&mut self, render: &CraftyRenderHandle) {
        let Some((center, ..)) = self.plan_key else {
            return;
        };
        let covered = |column: IVec2| {
            (0..=MAX_LOD_LEVEL).any(|level| {
                let tile = LodTile::containing(level, column);
                self.planned.contains(&tile) && self.resident.contains_key(&tile)
            })
        };
        // Beyond the near radius, and the near rim's columns not meshed in
        // full yet: far terrain stands in for them.
        let hidden: HashSet<IVec2> = self
            .meshed
            .iter()
            .filter(|&(&c, &bits)| {
                ((c - center).abs().max_element() > self.near || bits != FULL_COLUMN) && covered(c)
            })
            .map(|(&c, _)| c)
            .collect();
        if hidden != self.hidden {
            render.set_hidden_columns(hidden.clone());
            self.hidden = hidden;
        }
    }

    /// Drops every far tile (far view off, or leaving the world).
    pub(super) fn clear(&mut self, render: &CraftyRenderHandle) {
        for (tile, resident) in self.resident.drain() {
            for section in resident.sections {
                render.remove_far_section(tile, section);
            }
        }
        self.plan.clear();
        self.planned.clear();
        self.retiring.clear();
        self.stale.clear();
        self.plan_key = None;
        if !self.hidden.is_empty() {
            self.hidden.clear();
            render.set_hidden_columns(HashSet::new());
        }
    }
}
