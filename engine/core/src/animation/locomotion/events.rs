//! Which layer leads, its events, and the strides' phase.

use super::Locomotion;
use crate::animation::{AnimationEvent, AnimationPlayer, ClipId};

impl Locomotion {
    /// The layer that led the last step: the heaviest of idle, walk and run
    /// (a tie goes to the faster gait); `None` before the first
    /// [`update`](Self::update) or when all three weighed 0.
    ///
    /// ```
    /// # use taos_core::Locomotion;
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk) = (player.add_clip(clip()), player.add_clip(clip()));
    /// let locomotion = Locomotion::new(idle, walk, 1.4)?;
    /// assert_eq!(locomotion.leading(), None);
    /// # Ok::<(), taos_core::LocomotionError>(())
    /// ```
    #[must_use]
    pub fn leading(&self) -> Option<ClipId> {
        let mut leading = None;
        let mut heaviest = 0.0;
        for (clip, weight) in self.clips().into_iter().zip(self.stepped) {
            if let Some(clip) = clip
                && weight > 0.0
                && weight >= heaviest
            {
                leading = Some(clip);
                heaviest = weight;
            }
        }
        leading
    }

    /// The events of the last step from the layer that led it
    /// ([`leading`](Self::leading)): one footstep per foot however walk and
    /// run are blended, none from a layer at weight 0. Call it after
    /// [`update`](Self::update) in the same update. Events of other clips
    /// are in [`AnimationPlayer::events`].
    ///
    /// ```
    /// # use taos_core::Locomotion;
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk) = (player.add_clip(clip()), player.add_clip(clip()));
    /// let locomotion = Locomotion::new(idle, walk, 1.4)?;
    /// let footsteps = locomotion.events(&player).filter(|e| e.name() == "footstep").count();
    /// assert_eq!(footsteps, 0);
    /// # Ok::<(), taos_core::LocomotionError>(())
    /// ```
    pub fn events<'p>(
        &self,
        player: &'p AnimationPlayer,
    ) -> impl Iterator<Item = &'p AnimationEvent> + use<'p> {
        let leading = self.leading();
        player
            .events()
            .iter()
            .filter(move |event| Some(event.clip()) == leading)
    }

    /// The events of the last step from the idle, walk and run layers that
    /// played it at a weight of at least `min_weight`, and above 0. With
    /// `min_weight` over 0.5 at most one layer passes; lower, walk and run
    /// may both report a footstep in mid-blend. Call it after
    /// [`update`](Self::update) in the same update.
    ///
    /// ```
    /// # use taos_core::Locomotion;
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk) = (player.add_clip(clip()), player.add_clip(clip()));
    /// let locomotion = Locomotion::new(idle, walk, 1.4)?;
    /// assert_eq!(locomotion.events_with_weight(&player, 0.25).count(), 0);
    /// # Ok::<(), taos_core::LocomotionError>(())
    /// ```
    pub fn events_with_weight<'p>(
        &self,
        player: &'p AnimationPlayer,
        min_weight: f32,
    ) -> impl Iterator<Item = &'p AnimationEvent> + use<'p> {
        let (clips, weights) = (self.clips(), self.stepped);
        let passing: [Option<ClipId>; 3] = std::array::from_fn(|i| {
            clips[i].filter(|_| weights[i] > 0.0 && weights[i] >= min_weight)
        });
        player
            .events()
            .iter()
            .filter(move |event| passing.contains(&Some(event.clip())))
    }

    /// How far through its cycle the heavier of walk and run is, `0..=1`
    /// (time / duration); `None` when it has no layer or lasts 0 s.
    ///
    /// ```
    /// # use taos_core::Locomotion;
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk) = (player.add_clip(clip()), player.add_clip(clip()));
    /// let locomotion = Locomotion::new(idle, walk, 1.4)?;
    /// assert_eq!(locomotion.phase(&player), None); // not started
    /// # Ok::<(), taos_core::LocomotionError>(())
    /// ```
    #[must_use]
    pub fn phase(&self, player: &AnimationPlayer) -> Option<f32> {
        let weight = |clip| player.layer(clip).map_or(0.0, |layer| layer.weight());
        let clip = match self.run {
            Some(run) if weight(run.clip) > weight(self.walk.clip) => run.clip,
            _ => self.walk.clip,
        };
        let duration = player.clip(clip)?.duration();
        let time = player.layer(clip)?.time();
        (duration > 0.0).then(|| time / duration)
    }
}
