//! Deterministic state checksums: what replay, sync tests and idle detection
//! compare.
//!
//! A checksum walks every GameObject in [`ObjectId`](crate::ObjectId) order and
//! hashes its id, name, enabled flag, parent and local transform bit for bit,
//! then every component type registered with [`StateChecksum::component`], then
//! the scene clock, timers, [`GameRng`](crate::game_loop::GameRng), action flags and any
//! registered resource. The hash is FNV-1a over little-endian bytes, so it is
//! the same on every platform and build.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;
use glam::{Quat, Vec2, Vec3};

use crate::input::Actions;
use crate::object::ObjectInfo;
use crate::rng::GameRng;
use crate::timers::Timers;
use crate::{GameObject, Scene, Time, Transform};

/// FNV-1a, 64 bits.
#[derive(Debug, Clone)]
pub struct StateHasher(u64);

impl Default for StateHasher {
    fn default() -> Self {
        Self(0xCBF2_9CE4_8422_2325)
    }
}

impl StateHasher {
    /// Hashes raw bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    /// Hashes one byte.
    pub fn write_u8(&mut self, v: u8) {
        self.write(&[v]);
    }

    /// Hashes a `u32`, little-endian.
    pub fn write_u32(&mut self, v: u32) {
        self.write(&v.to_le_bytes());
    }

    /// Hashes a `u64`, little-endian.
    pub fn write_u64(&mut self, v: u64) {
        self.write(&v.to_le_bytes());
    }

    /// Hashes a float's exact bits (so -0.0 and 0.0 differ, as they can diverge).
    pub fn write_f32(&mut self, v: f32) {
        self.write_u32(v.to_bits());
    }

    /// Hashes a double's exact bits.
    pub fn write_f64(&mut self, v: f64) {
        self.write_u64(v.to_bits());
    }

    /// The hash so far.
    #[must_use]
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// A value that can feed a [`StateHasher`] deterministically. Implement it for
/// components and resources that the checksum should cover.
pub trait StateHash {
    /// Feeds every field that matters to `h`.
    fn hash_state(&self, h: &mut StateHasher);
}

macro_rules! hash_via {
    ($($t:ty => $m:ident as $cast:ty),* $(,)?) => {
        $(impl StateHash for $t {
            fn hash_state(&self, h: &mut StateHasher) {
                h.$m(*self as $cast);
            }
        })*
    };
}

hash_via!(
    u8 => write_u8 as u8, u16 => write_u32 as u32, u32 => write_u32 as u32,
    u64 => write_u64 as u64, i32 => write_u32 as u32, i64 => write_u64 as u64,
    usize => write_u64 as u64, f32 => write_f32 as f32, f64 => write_f64 as f64,
);

impl<T: StateHash + ?Sized> StateHash for &T {
    fn hash_state(&self, h: &mut StateHasher) {
        (**self).hash_state(h);
    }
}

impl StateHash for bool {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u8(u8::from(*self));
    }
}

impl StateHash for str {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u64(self.len() as u64);
        h.write(self.as_bytes());
    }
}

impl StateHash for String {
    fn hash_state(&self, h: &mut StateHasher) {
        self.as_str().hash_state(h);
    }
}

impl StateHash for Vec2 {
    fn hash_state(&self, h: &mut StateHasher) {
        self.to_array().hash_state(h);
    }
}

impl StateHash for Vec3 {
    fn hash_state(&self, h: &mut StateHasher) {
        self.to_array().hash_state(h);
    }
}

impl StateHash for Quat {
    fn hash_state(&self, h: &mut StateHasher) {
        self.to_array().hash_state(h);
    }
}

impl<T: StateHash> StateHash for [T] {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u64(self.len() as u64);
        self.iter().for_each(|v| v.hash_state(h));
    }
}

impl<T: StateHash, const N: usize> StateHash for [T; N] {
    fn hash_state(&self, h: &mut StateHasher) {
        self.as_slice().hash_state(h);
    }
}

impl<T: StateHash> StateHash for Vec<T> {
    fn hash_state(&self, h: &mut StateHasher) {
        self.as_slice().hash_state(h);
    }
}

impl<T: StateHash> StateHash for Option<T> {
    fn hash_state(&self, h: &mut StateHasher) {
        match self {
            Some(v) => {
                h.write_u8(1);
                v.hash_state(h);
            }
            None => h.write_u8(0),
        }
    }
}

impl StateHash for Transform {
    fn hash_state(&self, h: &mut StateHasher) {
        self.position.hash_state(h);
        self.rotation.hash_state(h);
        self.scale.hash_state(h);
    }
}

type EntityHasher = Box<dyn Fn(&World, Entity, &mut StateHasher) + Send + Sync>;
type WorldHasher = Box<dyn Fn(&World, &mut StateHasher) + Send + Sync>;

/// Which component types and resources a checksum covers, beyond the built-ins.
#[derive(Default)]
pub struct StateChecksum {
    components: Vec<EntityHasher>,
    resources: Vec<WorldHasher>,
    order: Vec<(crate::ObjectId, Entity)>,
}

impl std::fmt::Debug for StateChecksum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateChecksum")
            .field("components", &self.components.len())
            .field("resources", &self.resources.len())
            .finish()
    }
}

impl StateChecksum {
    /// Covers component `C` on every object (its presence and its value).
    pub fn component<C: Component + StateHash>(&mut self) -> &mut Self {
        self.components.push(Box::new(|world, entity, h| {
            world.get::<C>(entity).hash_state(h);
        }));
        self
    }

    /// Covers resource `R` (its presence and its value).
    pub fn resource<R: Resource + StateHash>(&mut self) -> &mut Self {
        self.resources.push(Box::new(|world, h| {
            world.get_resource::<R>().hash_state(h);
        }));
        self
    }

    /// Hash of every object: ids, names, enabled flags, parents, transforms and
    /// registered components. Excludes clocks and timers, so a scene where
    /// nothing moves keeps the same value: the idle fingerprint auto-pause
    /// settles on (the watchdog judges progress by [`structure`](Self::structure)).
    pub fn objects(&mut self, scene: &Scene) -> u64 {
        let mut h = StateHasher::default();
        self.hash_objects(scene, &mut h, Coverage::Everything);
        h.finish()
    }

    /// Hash of the scene's structure only: which objects exist (ids and
    /// names), their enabled flags and parents. No transforms and no
    /// components, so ambient animation (a waving flag, a spinning pickup)
    /// leaves it unchanged while spawning, removing, enabling or
    /// re-parenting changes it: the watchdog's default progress signal.
    pub fn structure(&mut self, scene: &Scene) -> u64 {
        let mut h = StateHasher::default();
        self.hash_objects(scene, &mut h, Coverage::Structure);
        h.finish()
    }

    /// Hash of the whole simulation state: [`objects`](Self::objects) plus the
    /// scene clock, pending timers, the RNG, action flags and registered resources.
    pub fn full(&mut self, scene: &Scene) -> u64 {
        let mut h = StateHasher::default();
        self.hash_objects(scene, &mut h, Coverage::Everything);
        let world = scene.world();
        if let Some(time) = world.get_resource::<Time>() {
            // Simulation time only: frame counts, fps and real seconds depend
            // on how ticks were batched into frames, which a replay may not repeat.
            h.write_f64(time.elapsed());
            h.write_f32(time.scale());
        }
        if let Some(timers) = world.get_resource::<Timers>() {
            h.write_u64(timers.now().0);
            for (handle, at) in timers.iter_pending() {
                h.write_u64(handle.sequence());
                h.write_u64(at.0);
            }
        }
        world.get_resource::<GameRng>().hash_state(&mut h);
        if let Some(actions) = world.get_resource::<Actions>() {
            h.write_u32(actions.current.0);
        }
        for hash in &self.resources {
            hash(world, &mut h);
        }
        h.finish()
    }

    fn hash_objects(&mut self, scene: &Scene, h: &mut StateHasher, coverage: Coverage) {
        let world = scene.world();
        self.order.clear();
        let Some(mut infos) = world.try_query::<(Entity, &ObjectInfo)>() else {
            return;
        };
        self.order
            .extend(infos.iter(world).map(|(entity, info)| (info.id(), entity)));
        self.order.sort_unstable();
        h.write_u64(self.order.len() as u64);
        for &(id, entity) in &self.order {
            let object = GameObject::from_entity(entity);
            h.write_u64(id.0);
            scene.name(object).hash_state(h);
            scene.is_enabled(object).hash_state(h);
            scene
                .parent(object)
                .and_then(|p| scene.id(p))
                .map(|p| p.0)
                .hash_state(h);
            if coverage == Coverage::Structure {
                continue;
            }
            world.get::<Transform>(entity).hash_state(h);
            for hash in &self.components {
                hash(world, entity, h);
            }
        }
    }
}

/// What of each object a hash covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coverage {
    /// Id, name, enabled flag and parent.
    Structure,
    /// The structure, the transform and the registered components.
    Everything,
}

impl StateHash for crate::rng::GameRng {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u64(self.state());
    }
}
