//! Changed chunks to players, by region: each player is told the versions
//! of the regions with changed chunks within its view as it comes near
//! them ([`ServerMessage::RegionVersions`]); it asks for the regions its
//! cache lacks at that version
//! ([`WantRegions`](crafty_net::ClientMessage::WantRegions)) and is sent
//! their chunks' versions ([`ServerMessage::ChunkVersions`]); it asks for
//! the chunks it lacks ([`WantChunks`](crafty_net::ClientMessage::WantChunks))
//! and is sent them compressed, at most [`CHUNK_BYTES_PER_TICK`] a tick.
//! Edits made while it plays come through the edit log, so a joiner costs
//! the chunks it can see, not the world's history, and one coming back
//! with its cache costs the regions' versions.

use crafty_net::protocol::ServerMessage;
use crafty_net::{ChunkData, Link, region_of};
use crafty_sim::world::ChunkPos;
use glam::{IVec3, Vec3};

use super::Server;
use super::connection::Phase;

/// The farthest view (in chunks) a server sends changed chunks for by
/// default: crafty's farthest view setting.
pub const MAX_VIEW_CHUNKS: u8 = 16;

/// Compressed chunk bytes sent to one player per tick (1.25 MB/s at
/// 20 Hz), so a joiner's chunks do not crowd out everyone's states.
pub const CHUNK_BYTES_PER_TICK: usize = 64 * 1024;

/// Chunks (or regions) a player may have asked for and not been sent yet;
/// more requests are ignored until these are sent.
const MAX_WANTED: usize = 4096;

/// Regions whose chunk versions one player is sent per tick.
const REGIONS_PER_TICK: usize = 16;

impl<L: Link> Server<L> {
    /// Tells each player of the regions that came into view, and sends
    /// the region listings and chunks it asked for.
    pub(super) fn send_chunks(&mut self) {
        for index in 0..self.connections.len() {
            let Phase::Playing(playing) = &self.connections[index].phase else {
                continue;
            };
            let feet = Vec3::from_array(self.body_state(playing.object).position);
            let (chunk, _) = ChunkPos::of_block(feet.floor().as_ivec3());
            let column = ChunkPos::new(chunk.0.x, 0, chunk.0.z);
            let Self {
                connections, log, ..
            } = self;
            let connection = &mut connections[index];
            let Phase::Playing(playing) = &mut connection.phase else {
                continue;
            };
            let mut messages = Vec::new();
            if playing.told_around != Some(column) {
                playing.told_around = Some(column);
                let regions: Vec<([i32; 2], u64)> = log
                    .regions_near(column, playing.view)
                    .into_iter()
                    .filter(|&(region, _)| playing.told.insert(region))
                    .collect();
                if !regions.is_empty() {
                    messages.push(ServerMessage::RegionVersions { regions });
                }
            }
            for _ in 0..REGIONS_PER_TICK {
                let Some(region) = playing.wanted_regions.pop_front() else {
                    break;
                };
                if let Some((version, chunks)) = log.region(region) {
                    playing.listed.insert(region);
                    messages.push(ServerMessage::ChunkVersions {
                        region,
                        version,
                        chunks,
                    });
                }
            }
            let mut bytes = 0;
            let mut chunks = Vec::new();
            while bytes < CHUNK_BYTES_PER_TICK {
                let Some(pos) = playing.wanted.pop_front() else {
                    break;
                };
                if let Some((version, data)) = log.compressed(pos) {
                    bytes += data.len() + 16;
                    chunks.push(ChunkData {
                        at: pos.0.to_array(),
                        version,
                        data: data.to_vec(),
                    });
                }
            }
            if !chunks.is_empty() {
                messages.push(ServerMessage::Chunks { chunks });
            }
            for message in &messages {
                connection.send(message);
            }
        }
    }

    /// A player asks for regions' listings: those it was told of are
    /// queued.
    pub(super) fn want_regions(&mut self, index: usize, regions: &[[i32; 2]]) {
        let Phase::Playing(playing) = &mut self.connections[index].phase else {
            return;
        };
        for &region in regions {
            if playing.wanted_regions.len() < MAX_WANTED && playing.told.contains(&region) {
                playing.wanted_regions.push_back(region);
            }
        }
    }

    /// A player asks for chunks: those of regions it was sent the listing
    /// of are queued.
    pub(super) fn want_chunks(&mut self, index: usize, chunks: &[[i32; 3]]) {
        let Phase::Playing(playing) = &mut self.connections[index].phase else {
            return;
        };
        for &at in chunks {
            if playing.wanted.len() < MAX_WANTED && playing.listed.contains(&region_of(at)) {
                playing.wanted.push_back(ChunkPos(IVec3::from_array(at)));
            }
        }
    }
}
