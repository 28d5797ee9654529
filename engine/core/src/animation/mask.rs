//! [`AnimationMask`]: which targets a layer may move.

use crate::Scene;
use crate::object::GameObject;

/// Limits an animation layer to some targets (see
/// [`LayerSettings::mask`](crate::LayerSettings::mask)): an upper-body wave
/// over a walk, say. Outside the mask the layer contributes nothing, so the
/// other layers alone decide those targets.
///
/// Add it to the player with
/// [`AnimationPlayer::add_mask`](crate::AnimationPlayer::add_mask).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnimationMask {
    /// Sorted, without duplicates.
    objects: Vec<GameObject>,
    /// `true`: every target except `objects`.
    except: bool,
}

impl AnimationMask {
    /// A mask letting the layer move only these objects.
    #[must_use]
    pub fn only(objects: impl IntoIterator<Item = GameObject>) -> Self {
        let mut objects: Vec<_> = objects.into_iter().collect();
        objects.sort_unstable();
        objects.dedup();
        Self {
            objects,
            except: false,
        }
    }

    /// A mask letting the layer move every object but these.
    #[must_use]
    pub fn all_except(objects: impl IntoIterator<Item = GameObject>) -> Self {
        Self {
            except: true,
            ..Self::only(objects)
        }
    }

    /// A mask of `root` and every object below it in `scene`'s hierarchy
    /// (an arm, the upper body from the spine up). An object the scene does
    /// not hold gives a mask of itself alone.
    #[must_use]
    pub fn subtree(scene: &Scene, root: GameObject) -> Self {
        let mut objects = vec![root];
        let mut next = 0;
        while let Some(&object) = objects.get(next) {
            objects.extend(scene.children(object));
            next += 1;
        }
        Self::only(objects)
    }

    /// The same set the other way round: what it let through it now keeps
    /// out, and the reverse.
    #[must_use]
    pub fn inverted(mut self) -> Self {
        self.except = !self.except;
        self
    }

    /// Maps every object of the mask to another (for a second copy of a
    /// model, as [`AnimationClip::retarget`](crate::AnimationClip::retarget)).
    pub fn retarget(&mut self, mut map: impl FnMut(GameObject) -> GameObject) {
        for object in &mut self.objects {
            *object = map(*object);
        }
        self.objects.sort_unstable();
        self.objects.dedup();
    }

    /// Whether a layer with this mask may move `object`.
    #[must_use]
    pub fn contains(&self, object: GameObject) -> bool {
        self.objects.binary_search(&object).is_ok() != self.except
    }
}
