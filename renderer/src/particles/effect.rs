//! [`ParticleEffect`]: what an emitter spawns and how its particles move
//! and look, as plain data a game builds, clones and shares.

use glam::{Vec3, Vec4};

use super::curve::{Curve, Gradient};
use super::shape::EmitterShape;
use crate::resources::TextureId;

/// Most particles one emitter keeps alive on the GPU path (a ring of this
/// many; the oldest are reused when it is full).
pub const MAX_GPU_PARTICLES: u32 = 1 << 21;
/// Most particles one emitter keeps alive on the CPU path (WebGL2 and
/// other backends without compute shaders).
pub const MAX_CPU_PARTICLES: u32 = 1 << 17;

/// A range a value is drawn from, uniformly, once per particle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatRange {
    /// The smallest value.
    pub min: f32,
    /// The largest value.
    pub max: f32,
}

impl FloatRange {
    /// Always `value`.
    #[must_use]
    pub const fn constant(value: f32) -> Self {
        Self {
            min: value,
            max: value,
        }
    }

    /// From `min` to `max`.
    #[must_use]
    pub const fn new(min: f32, max: f32) -> Self {
        Self { min, max }
    }

    /// The value at `t` in `0..1`.
    #[must_use]
    pub fn lerp(&self, t: f32) -> f32 {
        self.min + (self.max - self.min) * t
    }
}

/// A number of particles spawned at once, once or every `interval` seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Burst {
    /// Seconds after the emitter starts.
    pub time: f32,
    /// Particles spawned.
    pub count: u32,
    /// How many times it fires (0: every `interval` forever).
    pub cycles: u32,
    /// Seconds between two firings (ignored for a single firing).
    pub interval: f32,
}

impl Burst {
    /// `count` particles once, `time` seconds after the start.
    #[must_use]
    pub const fn once(time: f32, count: u32) -> Self {
        Self {
            time,
            count,
            cycles: 1,
            interval: 0.0,
        }
    }

    /// `count` particles every `interval` seconds, from `time` on, forever.
    #[must_use]
    pub const fn repeating(time: f32, count: u32, interval: f32) -> Self {
        Self {
            time,
            count,
            cycles: 0,
            interval,
        }
    }
}

/// How a particle's colour meets the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ParticleBlend {
    /// Adds light (fire, sparks, magic): order does not matter.
    #[default]
    Additive,
    /// Covers what lies behind by its opacity (smoke, dust, debris): drawn
    /// back to front.
    Alpha,
}

/// Where particles live once spawned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SimulationSpace {
    /// Spawned where the emitter is, then on their own: a moving emitter
    /// leaves a trail.
    #[default]
    World,
    /// Carried with the emitter: particles follow it as it moves and turns.
    Local,
}

/// A texture sheet of animation frames, left to right, top to bottom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flipbook {
    /// Frames across.
    pub columns: u32,
    /// Frames down.
    pub rows: u32,
    /// Frames used (0: `columns * rows`).
    pub frames: u32,
    /// Frames per second (0: the whole sheet plays once over a particle's
    /// life).
    pub fps: f32,
    /// Start each particle on a random frame.
    pub random_start: bool,
    /// The sheet's cell the animation starts at: frame `n` shows cell
    /// `first_cell + n` (a texture atlas with one animation, or a still
    /// tile: `frames: 1`).
    pub first_cell: u32,
}

impl Flipbook {
    /// The still cell `cell` of a `columns` x `rows` atlas (a block's tile
    /// in a texture atlas).
    #[must_use]
    pub const fn still(columns: u32, rows: u32, cell: u32) -> Self {
        Self {
            columns,
            rows,
            frames: 1,
            fps: 0.0,
            random_start: false,
            first_cell: cell,
        }
    }
}

/// Particles bounce off the scene's depth buffer (what the camera sees).
/// GPU path only: the CPU path has no depth buffer to read and lets
/// particles pass through (logged once).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DepthCollision {
    /// Speed kept along the surface normal after a bounce (0: stops, 1:
    /// bounces fully).
    pub restitution: f32,
    /// Speed lost along the surface at a bounce (0..1).
    pub friction: f32,
    /// How far behind a visible surface a particle still counts as having
    /// hit it, in metres (thin walls need a small value).
    pub thickness: f32,
}

impl Default for DepthCollision {
    fn default() -> Self {
        Self {
            restitution: 0.4,
            friction: 0.2,
            thickness: 0.5,
        }
    }
}

/// Everything an emitter needs: spawning, motion, looks. Clone it freely;
/// the engine's `ParticleEmitter` shares one behind an `Arc`.
///
/// Values out of range (NaN, infinities, lifetimes of zero or less, counts
/// above the limits) are not errors at draw time: the renderer draws the
/// [`sanitized`](Self::sanitized) effect and logs what it changed once.
/// [`validate`](Self::validate) reports the first problem, for tools and
/// tests that want to refuse bad effects.
#[derive(Debug, Clone, PartialEq)]
pub struct ParticleEffect {
    /// A name for logs and the stats.
    pub name: String,
    /// Most particles alive at once (clamped to [`MAX_GPU_PARTICLES`], and
    /// to [`MAX_CPU_PARTICLES`] on the CPU path).
    pub max_particles: u32,
    /// Particles spawned per second while emitting.
    pub rate: f32,
    /// Particles spawned at once.
    pub bursts: Vec<Burst>,
    /// Where particles start and which way they go.
    pub shape: EmitterShape,
    /// Seconds a particle lives.
    pub lifetime: FloatRange,
    /// Starting speed along the shape's direction, in m/s.
    pub speed: FloatRange,
    /// A starting velocity added to every particle, in m/s.
    pub initial_velocity: Vec3,
    /// Acceleration in m/s² (world space).
    pub gravity: Vec3,
    /// Air drag: the velocity shrinks by `exp(-drag * dt)` each step.
    pub drag: f32,
    /// Starting size (the quad's width) in metres.
    pub size: FloatRange,
    /// The size over life, times the starting size.
    pub size_over_life: Curve,
    /// Colour over life (linear RGB, may exceed 1 for glowing particles).
    pub color: Gradient,
    /// Opacity over life (0..1).
    pub opacity: Curve,
    /// Starting rotation in radians.
    pub rotation: FloatRange,
    /// Spin in radians per second.
    pub spin: FloatRange,
    /// Extra rotation over life, in radians.
    pub rotation_over_life: Curve,
    /// The particle's texture (`None`: a soft round dot).
    pub texture: Option<TextureId>,
    /// The texture as a sheet of animation frames.
    pub flipbook: Option<Flipbook>,
    /// Additive or alpha blending.
    pub blend: ParticleBlend,
    /// Particles fade out over this distance in metres as they near the
    /// surface behind them, instead of cutting it with a hard line (0: off).
    pub soft_distance: f32,
    /// Bounce off what the camera sees.
    pub collision: Option<DepthCollision>,
    /// World or local space.
    pub space: SimulationSpace,
}

impl Default for ParticleEffect {
    fn default() -> Self {
        Self {
            name: String::from("particles"),
            max_particles: 1024,
            rate: 32.0,
            bursts: Vec::new(),
            shape: EmitterShape::default(),
            lifetime: FloatRange::new(1.0, 2.0),
            speed: FloatRange::new(1.0, 2.0),
            initial_velocity: Vec3::ZERO,
            gravity: Vec3::ZERO,
            drag: 0.0,
            size: FloatRange::constant(0.2),
            size_over_life: Curve::constant(1.0),
            color: Gradient::constant(Vec3::ONE),
            opacity: Curve::linear(1.0, 0.0),
            rotation: FloatRange::constant(0.0),
            spin: FloatRange::constant(0.0),
            rotation_over_life: Curve::constant(0.0),
            texture: None,
            flipbook: None,
            blend: ParticleBlend::Additive,
            soft_distance: 0.25,
            collision: None,
            space: SimulationSpace::World,
        }
    }
}

/// Why a [`ParticleEffect`] cannot be drawn as it is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ParticleEffectError {
    /// A number is NaN or infinite.
    #[error("particle effect '{effect}': {field} is not a finite number")]
    NotFinite {
        /// The effect's name.
        effect: String,
        /// The field.
        field: &'static str,
    },
    /// A value lies outside what it may be.
    #[error("particle effect '{effect}': {field} is {value}, {expected}")]
    OutOfRange {
        /// The effect's name.
        effect: String,
        /// The field.
        field: &'static str,
        /// The value given.
        value: f64,
        /// What it must be.
        expected: &'static str,
    },
}

/// Collects what [`ParticleEffect::sanitized`] changed.
struct Fixes<'a> {
    effect: &'a str,
    found: Vec<ParticleEffectError>,
}

impl Fixes<'_> {
    fn finite(&mut self, field: &'static str, value: f32, fallback: f32) -> f32 {
        if value.is_finite() {
            value
        } else {
            self.found.push(ParticleEffectError::NotFinite {
                effect: self.effect.to_owned(),
                field,
            });
            fallback
        }
    }

    fn vector(&mut self, field: &'static str, value: Vec3) -> Vec3 {
        if value.is_finite() {
            value
        } else {
            self.finite(field, f32::NAN, 0.0);
            Vec3::ZERO
        }
    }

    fn range(
        &mut self,
        field: &'static str,
        value: f32,
        (low, high): (f32, f32),
        expected: &'static str,
    ) -> f32 {
        let finite = self.finite(field, value, low);
        let clamped = finite.clamp(low, high);
        if clamped != finite {
            self.found.push(ParticleEffectError::OutOfRange {
                effect: self.effect.to_owned(),
                field,
                value: f64::from(finite),
                expected,
            });
        }
        clamped
    }

    fn float_range(
        &mut self,
        field: &'static str,
        range: FloatRange,
        bounds: (f32, f32),
        expected: &'static str,
    ) -> FloatRange {
        let min = self.range(field, range.min, bounds, expected);
        let max = self.range(field, range.max, bounds, expected);
        FloatRange::new(min.min(max), min.max(max))
    }

    fn count(&mut self, field: &'static str, value: u32, high: u32, expected: &'static str) -> u32 {
        if value > high {
            self.found.push(ParticleEffectError::OutOfRange {
                effect: self.effect.to_owned(),
                field,
                value: f64::from(value),
                expected,
            });
        }
        value.min(high)
    }
}

/// The shortest life a particle may have, in seconds.
pub const MIN_LIFETIME: f32 = 1e-3;
/// The longest life a particle may have, in seconds.
const MAX_LIFETIME: f32 = 3600.0;
/// Largest speed, size, gravity and drag the renderer takes.
const MAX_MAGNITUDE: f32 = 1e6;

impl ParticleEffect {
    /// The first problem [`sanitized`](Self::sanitized) would fix, if any.
    ///
    /// # Errors
    /// [`ParticleEffectError`] naming the effect and the field.
    ///
    /// ```
    /// use taos_renderer::particles::{FloatRange, ParticleEffect};
    ///
    /// assert!(ParticleEffect::default().validate().is_ok());
    /// let broken = ParticleEffect { lifetime: FloatRange::constant(-1.0), ..Default::default() };
    /// assert!(broken.validate().unwrap_err().to_string().contains("lifetime"));
    /// ```
    pub fn validate(&self) -> Result<(), ParticleEffectError> {
        match self.sanitize().1.into_iter().next() {
            Some(problem) => Err(problem),
            None => Ok(()),
        }
    }

    /// The effect with every out-of-range value clamped and every NaN or
    /// infinity replaced by a neutral value, and what was changed.
    #[must_use]
    pub fn sanitized(&self) -> (Self, Vec<ParticleEffectError>) {
        self.sanitize()
    }

    fn sanitize(&self) -> (Self, Vec<ParticleEffectError>) {
        let mut fixes = Fixes {
            effect: &self.name,
            found: Vec::new(),
        };
        let magnitude = (-MAX_MAGNITUDE, MAX_MAGNITUDE);
        let positive = (0.0, MAX_MAGNITUDE);
        let max_particles = fixes.count(
            "max_particles",
            self.max_particles,
            MAX_GPU_PARTICLES,
            "at most 2097152",
        );
        let bursts = self
            .bursts
            .iter()
            .map(|burst| Burst {
                time: fixes.range("burst time", burst.time, positive, "0 or more"),
                count: fixes.count(
                    "burst count",
                    burst.count,
                    max_particles,
                    "at most max_particles",
                ),
                cycles: burst.cycles,
                interval: fixes.range("burst interval", burst.interval, positive, "0 or more"),
            })
            .collect();
        let effect = Self {
            name: self.name.clone(),
            max_particles,
            rate: fixes.range("rate", self.rate, positive, "0 or more"),
            bursts,
            shape: self
                .shape
                .sanitized(&mut |field, value| fixes.range(field, value, magnitude, "finite")),
            lifetime: fixes.float_range(
                "lifetime",
                self.lifetime,
                (MIN_LIFETIME, MAX_LIFETIME),
                "between 0.001 and 3600 seconds",
            ),
            speed: fixes.float_range("speed", self.speed, magnitude, "finite"),
            initial_velocity: fixes.vector("initial_velocity", self.initial_velocity),
            gravity: fixes.vector("gravity", self.gravity),
            drag: fixes.range("drag", self.drag, (0.0, 1e3), "between 0 and 1000"),
            size: fixes.float_range("size", self.size, positive, "0 or more"),
            size_over_life: self.size_over_life.sanitized(),
            color: self.color.sanitized(),
            opacity: self.opacity.sanitized(),
            rotation: fixes.float_range("rotation", self.rotation, magnitude, "finite"),
            spin: fixes.float_range("spin", self.spin, magnitude, "finite"),
            rotation_over_life: self.rotation_over_life.sanitized(),
            texture: self.texture,
            flipbook: self.flipbook.map(|book| Flipbook {
                columns: book.columns.clamp(1, 256),
                rows: book.rows.clamp(1, 256),
                frames: book.frames,
                fps: fixes.range("flipbook fps", book.fps, (0.0, 1e4), "0 or more"),
                random_start: book.random_start,
                first_cell: book
                    .first_cell
                    .min(book.columns.clamp(1, 256) * book.rows.clamp(1, 256) - 1),
            }),
            blend: self.blend,
            soft_distance: fixes.range("soft_distance", self.soft_distance, positive, "0 or more"),
            collision: self.collision.map(|c| DepthCollision {
                restitution: fixes.range("restitution", c.restitution, (0.0, 1.0), "0..1"),
                friction: fixes.range("friction", c.friction, (0.0, 1.0), "0..1"),
                thickness: fixes.range("thickness", c.thickness, positive, "0 or more"),
            }),
            space: self.space,
        };
        let mut found = fixes.found;
        for (field, curve) in [
            ("size_over_life", &self.size_over_life),
            ("opacity", &self.opacity),
            ("rotation_over_life", &self.rotation_over_life),
        ] {
            if !curve.is_finite() {
                found.push(ParticleEffectError::NotFinite {
                    effect: self.name.clone(),
                    field,
                });
            }
        }
        if !self.color.is_finite() {
            found.push(ParticleEffectError::NotFinite {
                effect: self.name.clone(),
                field: "color",
            });
        }
        (effect, found)
    }

    /// The frames a flipbook plays (1 without one): at most the cells from
    /// its first cell on.
    #[must_use]
    pub fn flipbook_frames(&self) -> u32 {
        self.flipbook.map_or(1, |book| {
            let cells = (book.columns.clamp(1, 256) * book.rows.clamp(1, 256))
                .saturating_sub(book.first_cell)
                .max(1);
            if book.frames == 0 {
                cells
            } else {
                book.frames.min(cells)
            }
        })
    }

    /// The colour and opacity at `t` of a particle's life, as RGBA.
    #[must_use]
    pub fn color_at(&self, t: f32) -> Vec4 {
        self.color.sample(t).extend(self.opacity.sample(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_numbers_are_clamped_and_named() {
        let effect = ParticleEffect {
            name: "bad".into(),
            max_particles: u32::MAX,
            rate: f32::NAN,
            lifetime: FloatRange::new(0.0, -3.0),
            gravity: Vec3::new(0.0, f32::INFINITY, 0.0),
            bursts: vec![Burst::once(0.0, 1_000_000_000)],
            ..Default::default()
        };
        let (fixed, problems) = effect.sanitized();
        assert_eq!(fixed.max_particles, MAX_GPU_PARTICLES);
        assert_eq!(fixed.rate, 0.0);
        assert_eq!(fixed.lifetime, FloatRange::constant(MIN_LIFETIME));
        assert_eq!(fixed.gravity, Vec3::ZERO);
        assert_eq!(fixed.bursts[0].count, MAX_GPU_PARTICLES);
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        for field in [
            "max_particles",
            "rate",
            "lifetime",
            "gravity",
            "burst count",
        ] {
            assert!(text.iter().any(|t| t.contains(field)), "{field}: {text:?}");
        }
        assert!(ParticleEffect::default().validate().is_ok());
        assert!(effect.validate().is_err());
    }

    #[test]
    fn flipbook_frames_count_the_used_cells() {
        let mut effect = ParticleEffect::default();
        assert_eq!(effect.flipbook_frames(), 1);
        effect.flipbook = Some(Flipbook {
            columns: 4,
            rows: 2,
            frames: 0,
            fps: 0.0,
            random_start: false,
            first_cell: 0,
        });
        assert_eq!(effect.flipbook_frames(), 8);
        effect.flipbook.as_mut().unwrap().frames = 20;
        assert_eq!(effect.flipbook_frames(), 8);
        effect.flipbook = Some(Flipbook::still(4, 2, 5));
        assert_eq!(effect.flipbook_frames(), 1);
    }
}
