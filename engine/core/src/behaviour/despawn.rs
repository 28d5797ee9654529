//! `on_detach` for objects despawned around the scene: by a bevy system's
//! `Commands`, a timer callback or `world_mut().despawn()`. The scene's own
//! removal ([`Scene::remove`](crate::Scene::remove)) calls `on_detach` while
//! the object still exists and then empties its behaviour list, so this hook
//! finds nothing left to detach and nothing runs twice.

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::resource::Resource;
use bevy_ecs::world::{DeferredWorld, World};

use super::{Behaviour, BehaviourContext, Behaviours};
use crate::error::UpdateError;
use crate::object::GameObject;

/// Errors from `on_detach` calls made by the despawn hook, until the scene
/// takes them ([`Scene::take_errors`](crate::Scene::take_errors)).
#[derive(Resource, Default)]
pub(crate) struct DetachErrors(pub(crate) Vec<UpdateError>);

/// `Behaviours`' despawn hook: takes the behaviours out and queues their
/// `on_detach`, which runs as soon as the world applies its commands (right
/// after the despawn). The object is gone by then: its transform reads as
/// identity and writes to it are dropped.
pub(super) fn detach_on_despawn(mut world: DeferredWorld<'_>, ctx: HookContext) {
    let Some(mut attached) = world.get_mut::<Behaviours>(ctx.entity) else {
        return;
    };
    let list = std::mem::take(&mut attached.bypass_change_detection().list);
    if list.is_empty() {
        return;
    }
    let object = GameObject::from_entity(ctx.entity);
    world
        .commands()
        .queue(move |world: &mut World| detach_all(world, object, list));
}

fn detach_all(world: &mut World, object: GameObject, mut list: Vec<Box<dyn Behaviour>>) {
    let mut errors = Vec::new();
    let mut cx = BehaviourContext::new(world, object);
    for behaviour in &mut list {
        if let Err(source) = behaviour.on_detach(&mut cx) {
            let error = UpdateError::Behaviour {
                behaviour: behaviour.name(),
                object,
                stage: "on_detach",
                source,
            };
            log::error!("{error}: {}", crate::scene::error_chain(&error));
            errors.push(error);
        }
    }
    world
        .get_resource_or_init::<DetachErrors>()
        .0
        .extend(errors);
}
