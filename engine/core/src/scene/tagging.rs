//! Tagging objects ([`Tags`]) and finding them by tag.

use super::Scene;
use super::find::{Match, all, first};
use crate::components::Tags;
use crate::error::SceneError;
use crate::object::GameObject;

impl Scene {
    /// Tags `object` with `tag`; returns `false` if it had the tag already.
    /// The object gets a [`Tags`] component with its first tag.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for a removed object.
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let coin = scene.spawn("Coin");
    /// assert!(scene.add_tag(coin, "pickup")?);
    /// assert!(!scene.add_tag(coin, "pickup")?);
    /// assert!(scene.has_tag(coin, "pickup"));
    /// # Ok::<(), SceneError>(())
    /// ```
    pub fn add_tag(&mut self, object: GameObject, tag: &str) -> Result<bool, SceneError> {
        self.slot_of(object)?;
        if self.has_tag(object, tag) {
            return Ok(false);
        }
        match self.world.get_mut::<Tags>(object.entity()) {
            Some(mut tags) => {
                tags.insert(tag);
            }
            None => {
                self.world
                    .entity_mut(object.entity())
                    .insert(Tags::from_iter([tag]));
            }
        }
        Ok(true)
    }

    /// Takes `tag` off `object`; returns `false` if it did not have it (or
    /// the handle is stale). The [`Tags`] component goes with the last tag.
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let coin = scene.spawn("Coin");
    /// scene.add_tag(coin, "pickup")?;
    /// assert!(scene.remove_tag(coin, "pickup"));
    /// assert!(!scene.remove_tag(coin, "pickup"));
    /// assert!(scene.get_component::<Tags>(coin).is_none());
    /// # Ok::<(), SceneError>(())
    /// ```
    pub fn remove_tag(&mut self, object: GameObject, tag: &str) -> bool {
        if !self.has_tag(object, tag) || self.slot_of(object).is_err() {
            return false;
        }
        let now_empty = self
            .world
            .get_mut::<Tags>(object.entity())
            .is_some_and(|mut tags| {
                tags.remove(tag);
                tags.is_empty()
            });
        if now_empty {
            self.world.entity_mut(object.entity()).remove::<Tags>();
        }
        true
    }

    /// Whether `object` carries `tag` (`false` for a stale handle).
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let coin = scene.spawn("Coin");
    /// assert!(!scene.has_tag(coin, "coin"));
    /// scene.add_tag(coin, "coin")?;
    /// assert!(scene.has_tag(coin, "coin"));
    /// scene.remove(coin)?;
    /// assert!(!scene.has_tag(coin, "coin"));
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn has_tag(&self, object: GameObject, tag: &str) -> bool {
        self.world
            .get::<Tags>(object.entity())
            .is_some_and(|tags| tags.contains(tag))
    }

    /// The first object tagged `tag` in hierarchy order, enabled or not
    /// (see [`find`](Self::find) for the order). Visits every tagged
    /// object (O(objects)).
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let hero = scene.spawn("Hero");
    /// scene.add_tag(hero, "player")?;
    /// assert_eq!(scene.find_tagged("player"), Some(hero));
    /// assert_eq!(scene.find_tagged("enemy"), None);
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_tagged(&self, tag: &str) -> Option<GameObject> {
        first(&self.world, Match::Tagged(tag))
    }

    /// Every object tagged `tag`, in hierarchy order, enabled or not.
    /// Visits every tagged object and sorts the matches.
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let coins: Vec<_> = (0..3).map(|i| scene.spawn(format!("Coin {i}"))).collect();
    /// for &coin in &coins {
    ///     scene.add_tag(coin, "coin")?;
    /// }
    /// scene.remove(coins[1])?;
    /// assert_eq!(scene.find_all_tagged("coin"), [coins[0], coins[2]]);
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_all_tagged(&self, tag: &str) -> Vec<GameObject> {
        all(&self.world, Match::Tagged(tag))
    }
}
