//! Adding, reading and removing components and behaviours, plus names and ids.

use bevy_ecs::change_detection::Mut;
use bevy_ecs::component::{Component, Mutable};

use super::Scene;
use crate::behaviour::{Behaviour, BehaviourContext, Behaviours};
use crate::error::SceneError;
use crate::object::{GameObject, ObjectId, ObjectIds, ObjectInfo};

impl Scene {
    /// Attaches an ECS component (data, e.g. [`Camera`](crate::Camera) or
    /// [`MeshRenderer`](crate::MeshRenderer)), replacing one of the same type.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for a removed object.
    pub fn add_component<C: Component>(
        &mut self,
        object: GameObject,
        component: C,
    ) -> Result<(), SceneError> {
        self.slot_of(object)?;
        self.world.entity_mut(object.entity()).insert(component);
        Ok(())
    }

    /// The object's component of type `C`.
    #[must_use]
    pub fn get_component<C: Component>(&self, object: GameObject) -> Option<&C> {
        self.world.get::<C>(object.entity())
    }

    /// The object's component of type `C`, mutable.
    pub fn get_component_mut<C: Component<Mutability = Mutable>>(
        &mut self,
        object: GameObject,
    ) -> Option<Mut<'_, C>> {
        self.world.get_mut::<C>(object.entity())
    }

    /// Detaches and returns the object's component of type `C`.
    pub fn remove_component<C: Component>(&mut self, object: GameObject) -> Option<C> {
        self.slot_of(object).ok()?;
        self.world.entity_mut(object.entity()).take::<C>()
    }

    /// Attaches a behaviour and calls its `on_attach`. An object can carry several
    /// behaviours, even several of one type; they run in attach order.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for a removed object.
    pub fn add_behaviour<B: Behaviour>(
        &mut self,
        object: GameObject,
        behaviour: B,
    ) -> Result<(), SceneError> {
        self.add_boxed_behaviour(object, Box::new(behaviour))
    }

    /// [`add_behaviour`](Self::add_behaviour) for a behaviour already boxed
    /// (one decoded from a scene file).
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for a removed object.
    pub fn add_boxed_behaviour(
        &mut self,
        object: GameObject,
        mut behaviour: Box<dyn Behaviour>,
    ) -> Result<(), SceneError> {
        self.slot_of(object)?;
        let result = behaviour.on_attach(&mut BehaviourContext::new(&mut self.world, object));
        self.report_result(behaviour.as_ref(), object, "on_attach", result);
        // on_attach may have removed the object; then the behaviour goes with it.
        if let Some(mut attached) = self.world.get_mut::<Behaviours>(object.entity()) {
            attached.list.push(behaviour);
        } else if let Ok(mut entity) = self.world.get_entity_mut(object.entity()) {
            entity.insert(Behaviours {
                list: vec![behaviour],
            });
        }
        Ok(())
    }

    /// The first behaviour of type `B` on the object.
    #[must_use]
    pub fn behaviour<B: Behaviour>(&self, object: GameObject) -> Option<&B> {
        crate::behaviour::behaviour_in(&self.world, object)
    }

    /// The first behaviour of type `B` on the object, mutable.
    pub fn behaviour_mut<B: Behaviour>(&mut self, object: GameObject) -> Option<&mut B> {
        crate::behaviour::behaviour_in_mut(&mut self.world, object)
    }

    /// Every behaviour of type `B` on the object, in attach order.
    pub fn behaviours<B: Behaviour>(&self, object: GameObject) -> impl Iterator<Item = &B> {
        self.world
            .get::<Behaviours>(object.entity())
            .into_iter()
            .flat_map(Behaviours::all::<B>)
    }

    /// Detaches the first behaviour of type `B`, after calling its `on_detach`.
    /// Returns whether one was found.
    pub fn remove_behaviour<B: Behaviour>(&mut self, object: GameObject) -> bool {
        let Some(mut removed) = self
            .world
            .get_mut::<Behaviours>(object.entity())
            .and_then(|mut b| b.take_first::<B>())
        else {
            return false;
        };
        let result = removed.on_detach(&mut BehaviourContext::new(&mut self.world, object));
        self.report_result(removed.as_ref(), object, "on_detach", result);
        true
    }

    fn report_result(
        &mut self,
        behaviour: &dyn Behaviour,
        object: GameObject,
        stage: &'static str,
        result: crate::BehaviourResult,
    ) {
        if let Err(source) = result {
            self.report(crate::UpdateError::Behaviour {
                behaviour: behaviour.name(),
                object,
                stage,
                source,
            });
        }
    }

    /// The object's name.
    #[must_use]
    pub fn name(&self, object: GameObject) -> Option<&str> {
        self.world
            .get::<ObjectInfo>(object.entity())
            .map(ObjectInfo::name)
    }

    /// Renames the object.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for a removed object.
    pub fn set_name(
        &mut self,
        object: GameObject,
        name: impl Into<String>,
    ) -> Result<(), SceneError> {
        self.slot_of(object)?;
        if let Some(mut info) = self.world.get_mut::<ObjectInfo>(object.entity()) {
            info.name = name.into();
        }
        Ok(())
    }

    /// The object's stable id.
    #[must_use]
    pub fn id(&self, object: GameObject) -> Option<ObjectId> {
        self.world
            .get::<ObjectInfo>(object.entity())
            .map(ObjectInfo::id)
    }

    /// Overwrites the object's id, e.g. with the persistent id of a saved scene.
    ///
    /// # Errors
    /// [`SceneError::DuplicateId`] if another live object has `id`;
    /// [`SceneError::StaleObject`] for a removed object.
    pub fn set_id(&mut self, object: GameObject, id: ObjectId) -> Result<(), SceneError> {
        self.slot_of(object)?;
        if let Some(holder) = self.find_by_id(id) {
            if holder == object {
                return Ok(());
            }
            return Err(SceneError::DuplicateId { id, holder });
        }
        let name = self.name(object).unwrap_or_default().to_owned();
        // Re-inserting runs ObjectInfo's hooks, which keep the id index current.
        self.world
            .entity_mut(object.entity())
            .insert(ObjectInfo { id, name });
        Ok(())
    }

    /// An id no live object has and no later spawn will be given: for an
    /// object made elsewhere (an editor command that must know its object's
    /// id before making it).
    pub fn reserve_id(&mut self) -> ObjectId {
        self.world.resource_mut::<ObjectIds>().fresh()
    }

    /// The live object with this id.
    #[must_use]
    pub fn find_by_id(&self, id: ObjectId) -> Option<GameObject> {
        ObjectIds::find(&self.world, id)
    }
}
