//! How strongly idle, walk and run count: the weights a speed asks for,
//! and the linear blend towards them.

use super::{Locomotion, clean_speed};

/// How strongly idle, walk and run count, each `0..=1`; from
/// [`Locomotion::weights_at`] they sum to 1.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LocomotionWeights {
    /// Standing still.
    pub idle: f32,
    /// The walk cycle.
    pub walk: f32,
    /// The run cycle (0 without one).
    pub run: f32,
}

impl LocomotionWeights {
    pub(super) fn to_array(self) -> [f32; 3] {
        [self.idle, self.walk, self.run]
    }

    pub(super) fn from_array([idle, walk, run]: [f32; 3]) -> Self {
        Self { idle, walk, run }
    }
}

impl Locomotion {
    /// The weights the layers settle at for `speed` metres per second
    /// (NaN and negative: 0): piecewise linear, summing to 1.
    ///
    /// ```
    /// # use taos_core::{Locomotion, LocomotionWeights};
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk, run) = (player.add_clip(clip()), player.add_clip(clip()), player.add_clip(clip()));
    /// let locomotion = Locomotion::new(idle, walk, 2.0)?.with_run(run, 4.0)?;
    /// let halfway = LocomotionWeights { idle: 0.0, walk: 0.5, run: 0.5 };
    /// assert_eq!(locomotion.weights_at(3.0), halfway);
    /// assert_eq!(locomotion.weights_at(f32::NAN).idle, 1.0);
    /// # Ok::<(), taos_core::LocomotionError>(())
    /// ```
    #[must_use]
    pub fn weights_at(&self, speed: f32) -> LocomotionWeights {
        let speed = clean_speed(speed);
        let walk = self.walk.speed;
        if speed < walk {
            let t = speed / walk;
            return LocomotionWeights {
                idle: 1.0 - t,
                walk: t,
                run: 0.0,
            };
        }
        match self.run {
            Some(run) if speed > walk => {
                let t = ((speed - walk) / (run.speed - walk)).min(1.0);
                LocomotionWeights {
                    idle: 0.0,
                    walk: 1.0 - t,
                    run: t,
                }
            }
            _ => LocomotionWeights {
                idle: 0.0,
                walk: 1.0,
                run: 0.0,
            },
        }
    }

    /// `current` moved towards `target`, no weight by more than
    /// `dt / blend_time`; along the straight line, so a sum of 1 stays 1.
    pub(super) fn blend(&self, current: [f32; 3], target: [f32; 3], dt: f32) -> [f32; 3] {
        if current.iter().sum::<f32>() <= 0.0 {
            return target;
        }
        let dt = if dt > 0.0 { dt } else { 0.0 };
        let reach = if self.blend_time > 0.0 {
            dt / self.blend_time
        } else {
            f32::INFINITY
        };
        let distance = current
            .iter()
            .zip(target)
            .fold(0.0_f32, |far, (c, t)| far.max((t - c).abs()));
        if distance <= reach {
            return target;
        }
        let f = reach / distance;
        [0, 1, 2].map(|i| current[i] + (target[i] - current[i]) * f)
    }
}
