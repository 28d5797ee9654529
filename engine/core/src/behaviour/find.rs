//! The scene's searches by name, path and tag, from a behaviour: the same
//! functions [`Scene::find`](crate::Scene::find) and friends run, on the
//! world the context borrows, with the same order and costs.
//!
//! Objects spawned through [`commands`](BehaviourContext::commands) in this
//! pass are not there yet: commands apply when the pass ends.

use super::BehaviourContext;
use crate::object::GameObject;
use crate::scene::find::{self, Match};

impl BehaviourContext<'_> {
    /// The first object named `name` in hierarchy order (see
    /// [`Scene::find`](crate::Scene::find)); O(objects), so find once (in
    /// `on_attach`) and keep the handle.
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct OpenDoor(Option<GameObject>);
    ///
    /// impl Behaviour for OpenDoor {
    ///     fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
    ///         self.0 = cx.find("Door");
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mut scene = Scene::new();
    /// let door = scene.spawn("Door");
    /// let key = scene.spawn("Key");
    /// scene.add_behaviour(key, OpenDoor::default())?;
    /// assert_eq!(scene.behaviour::<OpenDoor>(key).unwrap().0, Some(door));
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find(&self, name: &str) -> Option<GameObject> {
        find::first(self.world, Match::Named(name))
    }

    /// Every object named `name`, in hierarchy order (see
    /// [`Scene::find_all`](crate::Scene::find_all)).
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// struct CountLamps(usize);
    ///
    /// impl Behaviour for CountLamps {
    ///     fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
    ///         self.0 = cx.find_all("Lamp").len();
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mut scene = Scene::new();
    /// scene.spawn("Lamp");
    /// scene.spawn("Lamp");
    /// let room = scene.spawn("Room");
    /// scene.add_behaviour(room, CountLamps(0))?;
    /// assert_eq!(scene.behaviour::<CountLamps>(room).unwrap().0, 2);
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_all(&self, name: &str) -> Vec<GameObject> {
        find::all(self.world, Match::Named(name))
    }

    /// The object at `path` from the roots, `"Level/Door"` (see
    /// [`Scene::find_path`](crate::Scene::find_path)).
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// struct Exit(Option<GameObject>);
    ///
    /// impl Behaviour for Exit {
    ///     fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
    ///         self.0 = cx.find_path("Level/Exit");
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mut scene = Scene::new();
    /// let level = scene.spawn("Level");
    /// let exit = scene.spawn_child(level, "Exit")?;
    /// let hero = scene.spawn("Hero");
    /// scene.add_behaviour(hero, Exit(None))?;
    /// assert_eq!(scene.behaviour::<Exit>(hero).unwrap().0, Some(exit));
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_path(&self, path: &str) -> Option<GameObject> {
        find::at_path(self.world, path)
    }

    /// The object at `path` below `parent`, `"Arm/Hand"` (see
    /// [`Scene::find_child`](crate::Scene::find_child)). Below the
    /// behaviour's own object: `cx.find_child(cx.object(), "Arm")`.
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// struct Grip(Option<GameObject>);
    ///
    /// impl Behaviour for Grip {
    ///     fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
    ///         self.0 = cx.find_child(cx.object(), "Arm/Hand");
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mut scene = Scene::new();
    /// let robot = scene.spawn("Robot");
    /// let arm = scene.spawn_child(robot, "Arm")?;
    /// let hand = scene.spawn_child(arm, "Hand")?;
    /// scene.add_behaviour(robot, Grip(None))?;
    /// assert_eq!(scene.behaviour::<Grip>(robot).unwrap().0, Some(hand));
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_child(&self, parent: GameObject, path: &str) -> Option<GameObject> {
        find::below(self.world, parent, path)
    }

    /// The first object tagged `tag` in hierarchy order (see
    /// [`Scene::find_tagged`](crate::Scene::find_tagged)).
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// /// Turns to face the player every tick.
    /// struct Watch;
    ///
    /// impl Behaviour for Watch {
    ///     fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
    ///         let Some(player) = cx.find_tagged("player") else { return Ok(()) };
    ///         let target = cx.world_position_of(player).unwrap_or_default();
    ///         let here = cx.world_position();
    ///         let flat = (target - here).with_y(0.0);
    ///         if flat.length_squared() > 0.0 {
    ///             let yaw = (-flat.x).atan2(-flat.z);
    ///             cx.transform_mut().rotation = Quat::from_rotation_y(yaw);
    ///         }
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mut scene = Scene::new();
    /// let hero = scene.spawn_with("Hero", Transform::from_position(Vec3::X));
    /// scene.add_tag(hero, "player")?;
    /// let guard = scene.spawn("Guard");
    /// scene.add_behaviour(guard, Watch)?;
    /// scene.tick(0.016);
    /// let facing = scene.transform(guard).unwrap().rotation * Vec3::NEG_Z;
    /// assert!(facing.abs_diff_eq(Vec3::X, 1e-5));
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_tagged(&self, tag: &str) -> Option<GameObject> {
        find::first(self.world, Match::Tagged(tag))
    }

    /// Every object tagged `tag`, in hierarchy order (see
    /// [`Scene::find_all_tagged`](crate::Scene::find_all_tagged)).
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// /// Removes every coin when attached.
    /// struct Vacuum;
    ///
    /// impl Behaviour for Vacuum {
    ///     fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
    ///         for coin in cx.find_all_tagged("coin") {
    ///             cx.commands().remove(coin);
    ///         }
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mut scene = Scene::new();
    /// for i in 0..3 {
    ///     let coin = scene.spawn(format!("Coin {i}"));
    ///     scene.add_tag(coin, "coin")?;
    /// }
    /// let hero = scene.spawn("Hero");
    /// scene.add_behaviour(hero, Vacuum)?;
    /// scene.tick(0.016); // the commands apply during the tick
    /// assert!(scene.find_all_tagged("coin").is_empty());
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_all_tagged(&self, tag: &str) -> Vec<GameObject> {
        find::all(self.world, Match::Tagged(tag))
    }

    /// Whether `object` carries `tag` (`false` for a stale handle).
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// struct Armed(bool);
    ///
    /// impl Behaviour for Armed {
    ///     fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
    ///         self.0 = cx.has_tag(cx.object(), "armed");
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mut scene = Scene::new();
    /// let guard = scene.spawn("Guard");
    /// scene.add_tag(guard, "armed")?;
    /// scene.add_behaviour(guard, Armed(false))?;
    /// assert!(scene.behaviour::<Armed>(guard).unwrap().0);
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn has_tag(&self, object: GameObject, tag: &str) -> bool {
        self.world
            .get::<crate::components::Tags>(object.entity())
            .is_some_and(|tags| tags.contains(tag))
    }
}
