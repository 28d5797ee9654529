//! [`SceneTypes`]: which components and behaviours scene files carry, each
//! under a stable name, with the engine's built-in components registered
//! from the start.

use std::any::{Any, TypeId};
use std::fmt::Display;

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;
use glam::Vec3;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::behaviour::Behaviour;
use crate::components::{Camera, DirectionalLight, PointLight, Projection, SpotLight};
use crate::object::GameObject;
use crate::{MeshRenderer, MorphWeights, Scene};

use super::AssetNames;
use super::controllers::{CameraControllerDoc, PlayerControllerDoc};

/// Puts a decoded value on an object.
pub(crate) type Apply = Box<dyn FnOnce(&mut Scene, GameObject) + Send>;

/// JSON text, or why there is none.
type Text = Result<String, String>;
type SaveComponent = Box<dyn Fn(&World, Entity) -> Option<Text> + Send + Sync>;
type LoadComponent = Box<dyn Fn(&World, &str) -> Result<Apply, String> + Send + Sync>;
type SaveBehaviour = Box<dyn Fn(&dyn Behaviour) -> Text + Send + Sync>;
type LoadBehaviour = Box<dyn Fn(&str) -> Result<Box<dyn Behaviour>, String> + Send + Sync>;

pub(crate) struct ComponentType {
    pub(crate) name: &'static str,
    /// The object's component as JSON text, if it has one.
    pub(crate) save: SaveComponent,
    /// Decodes and checks a value against the scene's world (read only).
    pub(crate) load: LoadComponent,
    /// Takes the component off an object.
    pub(crate) remove: fn(&mut Scene, GameObject),
}

fn remove_component<C: Component>(scene: &mut Scene, object: GameObject) {
    scene.remove_component::<C>(object);
}

pub(crate) struct BehaviourType {
    pub(crate) name: &'static str,
    pub(crate) type_id: TypeId,
    pub(crate) save: SaveBehaviour,
    pub(crate) load: LoadBehaviour,
}

/// The component and behaviour types scene files carry, each under a
/// stable name (the name is what the file stores, so renaming a Rust type
/// keeps old files loading).
///
/// Registered from the start, under `taos.` names: [`Camera`],
/// [`DirectionalLight`], [`PointLight`], [`SpotLight`], [`MorphWeights`],
/// [`Tags`](crate::Tags) (a list of names),
/// [`ModelFile`](super::ModelFile) (`taos.Model`) and [`MeshRenderer`] (by
/// its mesh's and material's names in the scene's
/// [`AssetNames`](super::AssetNames)); and the behaviours
/// [`CameraController`](crate::controllers::CameraController) and
/// [`PlayerController`](crate::controllers::PlayerController) (their
/// settings; keys by name when rebound). A game adds its own:
///
/// ```
/// use taos_core::deps::serde::{Deserialize, Serialize};
/// use taos_core::prelude::*;
/// use taos_core::scene_file::SceneTypes;
///
/// #[derive(Component, Serialize, Deserialize)]
/// #[serde(crate = "taos_core::deps::serde")]
/// struct Health(i32);
///
/// let mut types = SceneTypes::default();
/// types.component::<Health>("mygame.Health");
/// ```
///
/// A component whose stored form should differ from its Rust layout (or
/// that must be checked on load) registers a codec with
/// [`component_with`](Self::component_with).
pub struct SceneTypes {
    pub(crate) components: Vec<ComponentType>,
    pub(crate) behaviours: Vec<BehaviourType>,
}

impl std::fmt::Debug for SceneTypes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SceneTypes")
            .field(
                "components",
                &self.components.iter().map(|c| c.name).collect::<Vec<_>>(),
            )
            .field(
                "behaviours",
                &self.behaviours.iter().map(|b| b.name).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Default for SceneTypes {
    fn default() -> Self {
        let mut types = Self {
            components: Vec::new(),
            behaviours: Vec::new(),
        };
        types
            .component_with(
                "taos.Camera",
                CameraDoc::from_camera,
                CameraDoc::into_camera,
            )
            .component_with(
                "taos.DirectionalLight",
                SunDoc::from_light,
                SunDoc::into_light,
            )
            .component_with(
                "taos.PointLight",
                PointDoc::from_light,
                PointDoc::into_light,
            )
            .component_with("taos.SpotLight", SpotDoc::from_light, SpotDoc::into_light)
            .component::<MorphWeights>("taos.MorphWeights")
            .component::<super::ModelFile>("taos.Model")
            .component::<crate::Tags>("taos.Tags")
            .component_in_world(
                "taos.MeshRenderer",
                MeshRendererDoc::from_renderer,
                MeshRendererDoc::into_renderer,
            )
            .behaviour_with(
                "taos.CameraController",
                |c| Ok(CameraControllerDoc::save(c)),
                CameraControllerDoc::load,
            )
            .behaviour_with(
                "taos.PlayerController",
                PlayerControllerDoc::save,
                PlayerControllerDoc::load,
            );
        types
    }
}

impl SceneTypes {
    /// Scene files carry component `C` under `name`, as serde writes it.
    pub fn component<C>(&mut self, name: &'static str) -> &mut Self
    where
        C: Component + Serialize + DeserializeOwned,
    {
        self.register::<C>(
            name,
            |c| serde_json::to_string(c).map_err(|e| e.to_string()),
            |text| serde_json::from_str(text).map_err(|e| e.to_string()),
        )
    }

    /// Scene files carry component `C` under `name` in the form `T`:
    /// `save` makes the stored form, `load` checks it and makes the
    /// component (its error is reported with the file, line and object).
    pub fn component_with<C, T, SE, LE>(
        &mut self,
        name: &'static str,
        save: fn(&C) -> Result<T, SE>,
        load: fn(T) -> Result<C, LE>,
    ) -> &mut Self
    where
        C: Component,
        T: Serialize + DeserializeOwned + 'static,
        SE: Display + 'static,
        LE: Display + 'static,
    {
        self.register::<C>(
            name,
            move |component| {
                save(component)
                    .map_err(|e| e.to_string())
                    .and_then(|doc| serde_json::to_string(&doc).map_err(|e| e.to_string()))
            },
            move |text| {
                let doc: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
                load(doc).map_err(|e| e.to_string())
            },
        )
    }

    /// [`component_with`](Self::component_with) for a component whose
    /// stored form depends on the scene's world: `save` and `load` read it
    /// (a [`MeshRenderer`](crate::MeshRenderer) stores its mesh's and
    /// material's names from [`AssetNames`](super::AssetNames)).
    pub fn component_in_world<C, T>(
        &mut self,
        name: &'static str,
        save: fn(&World, &C) -> Result<T, String>,
        load: fn(&World, T) -> Result<C, String>,
    ) -> &mut Self
    where
        C: Component,
        T: Serialize + DeserializeOwned + 'static,
    {
        self.components.retain(|c| c.name != name);
        self.components.push(ComponentType {
            name,
            save: Box::new(move |world, entity| {
                let component = world.get::<C>(entity)?;
                Some(
                    save(world, component)
                        .and_then(|doc| serde_json::to_string(&doc).map_err(|e| e.to_string())),
                )
            }),
            load: Box::new(move |world, text| {
                let doc: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
                let component = load(world, doc)?;
                Ok(Box::new(move |scene: &mut Scene, object: GameObject| {
                    let _ = scene.add_component(object, component);
                }))
            }),
            remove: remove_component::<C>,
        });
        self
    }

    fn register<C: Component>(
        &mut self,
        name: &'static str,
        save: impl Fn(&C) -> Result<String, String> + Send + Sync + 'static,
        load: impl Fn(&str) -> Result<C, String> + Send + Sync + 'static,
    ) -> &mut Self {
        self.components.retain(|c| c.name != name);
        self.components.push(ComponentType {
            name,
            save: Box::new(move |world, entity| world.get::<C>(entity).map(&save)),
            load: Box::new(move |_world, text| {
                let component = load(text)?;
                Ok(Box::new(move |scene: &mut Scene, object: GameObject| {
                    // The object was spawned by the loader a moment ago.
                    let _ = scene.add_component(object, component);
                }))
            }),
            remove: remove_component::<C>,
        });
        self
    }

    /// Scene files carry behaviour `B` under `name`. Behaviours that are
    /// not registered are left out of saved files (the save reports them).
    pub fn behaviour<B>(&mut self, name: &'static str) -> &mut Self
    where
        B: Behaviour + Serialize + DeserializeOwned,
    {
        self.behaviours.retain(|b| b.name != name);
        self.behaviours.push(BehaviourType {
            name,
            type_id: TypeId::of::<B>(),
            save: Box::new(|behaviour| {
                let any: &dyn Any = behaviour;
                any.downcast_ref::<B>()
                    .ok_or_else(|| "the behaviour is not of its registered type".to_owned())
                    .and_then(|b| serde_json::to_string(b).map_err(|e| e.to_string()))
            }),
            load: Box::new(|text| {
                let behaviour: B = serde_json::from_str(text).map_err(|e| e.to_string())?;
                Ok(Box::new(behaviour))
            }),
        });
        self
    }

    /// Scene files carry behaviour `B` under `name` in the form `T`:
    /// `save` makes the stored form (or says why this one cannot be
    /// stored), `load` checks it and makes the behaviour.
    pub fn behaviour_with<B, T>(
        &mut self,
        name: &'static str,
        save: fn(&B) -> Result<T, String>,
        load: fn(T) -> Result<B, String>,
    ) -> &mut Self
    where
        B: Behaviour,
        T: Serialize + DeserializeOwned + 'static,
    {
        self.behaviours.retain(|b| b.name != name);
        self.behaviours.push(BehaviourType {
            name,
            type_id: TypeId::of::<B>(),
            save: Box::new(move |behaviour| {
                let any: &dyn Any = behaviour;
                let behaviour = any
                    .downcast_ref::<B>()
                    .ok_or_else(|| "the behaviour is not of its registered type".to_owned())?;
                serde_json::to_string(&save(behaviour)?).map_err(|e| e.to_string())
            }),
            load: Box::new(move |text| {
                let doc: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
                Ok(Box::new(load(doc)?))
            }),
        });
        self
    }

    /// The registered component names, in registration order.
    pub fn component_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.components.iter().map(|c| c.name)
    }

    /// The object's registered component `type_name` as JSON text (`None`
    /// when the object has none or the name is not registered).
    ///
    /// # Errors
    /// The serialiser's message, for a value that does not serialise.
    pub fn component_text(
        &self,
        scene: &Scene,
        object: GameObject,
        type_name: &str,
    ) -> Result<Option<String>, String> {
        let Some(kind) = self.component_type(type_name) else {
            return Ok(None);
        };
        (kind.save)(scene.world(), object.entity()).transpose()
    }

    /// Puts component `type_name` decoded from `text` on `object`
    /// (replacing one it has), or takes it off for `None`.
    ///
    /// # Errors
    /// Why: the name is not registered, or the text does not decode or is
    /// refused by the component's codec. The object is unchanged then.
    pub fn set_component_text(
        &self,
        scene: &mut Scene,
        object: GameObject,
        type_name: &str,
        text: Option<&str>,
    ) -> Result<(), String> {
        let kind = self
            .component_type(type_name)
            .ok_or_else(|| format!("component {type_name:?} is not registered"))?;
        match text {
            Some(text) => {
                let apply = (kind.load)(scene.world(), text)?;
                apply(scene, object);
            }
            None => (kind.remove)(scene, object),
        }
        Ok(())
    }

    pub(crate) fn component_type(&self, name: &str) -> Option<&ComponentType> {
        self.components.iter().find(|c| c.name == name)
    }

    pub(crate) fn behaviour_type(&self, name: &str) -> Option<&BehaviourType> {
        self.behaviours.iter().find(|b| b.name == name)
    }

    pub(crate) fn behaviour_type_of(&self, type_id: TypeId) -> Option<&BehaviourType> {
        self.behaviours.iter().find(|b| b.type_id == type_id)
    }
}

/// A finite vector, or the reason it is not.
pub(super) fn finite_vec(what: &str, v: [f32; 3]) -> Result<Vec3, String> {
    let v = Vec3::from_array(v);
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("{what} is not finite: {v}"))
    }
}

pub(super) fn finite(what: &str, value: f32) -> Result<f32, String> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(format!("{what} is not finite: {value}"))
    }
}

/// A camera as a scene file stores it (angles in radians, as held).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CameraDoc {
    Perspective {
        fov_y: f32,
        aspect: f32,
        near: f32,
        far: f32,
    },
    Orthographic {
        half_height: f32,
        aspect: f32,
        near: f32,
        far: f32,
    },
}

impl CameraDoc {
    fn from_camera(camera: &Camera) -> Result<Self, String> {
        Ok(match camera.projection {
            Projection::Perspective {
                fov_y,
                aspect,
                near,
                far,
            } => Self::Perspective {
                fov_y,
                aspect,
                near,
                far,
            },
            Projection::Orthographic {
                half_height,
                aspect,
                near,
                far,
            } => Self::Orthographic {
                half_height,
                aspect,
                near,
                far,
            },
        })
    }

    fn into_camera(self) -> Result<Camera, crate::components::CameraError> {
        Camera::with_projection(match self {
            Self::Perspective {
                fov_y,
                aspect,
                near,
                far,
            } => Projection::Perspective {
                fov_y,
                aspect,
                near,
                far,
            },
            Self::Orthographic {
                half_height,
                aspect,
                near,
                far,
            } => Projection::Orthographic {
                half_height,
                aspect,
                near,
                far,
            },
        })
    }
}

/// A sun as a scene file stores it: `direction`, `color` and `intensity`
/// are required, as [`DirectionalLight::new`] requires them; the shadow
/// settings left out take the values it gives.
#[derive(Serialize, Deserialize)]
struct SunDoc {
    direction: [f32; 3],
    color: [f32; 3],
    intensity: f32,
    #[serde(default)]
    cast_shadows: Option<bool>,
    #[serde(default)]
    cascades: Option<u8>,
    #[serde(default)]
    split_lambda: Option<f32>,
    #[serde(default)]
    max_distance: Option<f32>,
}

impl SunDoc {
    fn from_light(light: &DirectionalLight) -> Result<Self, String> {
        Ok(Self {
            direction: light.direction.to_array(),
            color: light.color.to_array(),
            intensity: light.intensity,
            cast_shadows: Some(light.cast_shadows),
            cascades: Some(light.cascades.count),
            split_lambda: Some(light.cascades.split_lambda),
            max_distance: Some(light.cascades.max_distance),
        })
    }

    fn into_light(self) -> Result<DirectionalLight, String> {
        let direction = finite_vec("direction", self.direction)?;
        if direction.length_squared() == 0.0 {
            return Err("direction has no length".to_owned());
        }
        let mut light = DirectionalLight::new(
            direction,
            finite_vec("color", self.color)?,
            finite("intensity", self.intensity)?,
        );
        if let Some(cast_shadows) = self.cast_shadows {
            light.cast_shadows = cast_shadows;
        }
        if let Some(count) = self.cascades {
            light.cascades.count = count;
        }
        if let Some(lambda) = self.split_lambda {
            light.cascades.split_lambda = finite("split_lambda", lambda)?;
        }
        if let Some(distance) = self.max_distance {
            light.cascades.max_distance = finite("max_distance", distance)?;
        }
        Ok(light)
    }
}

#[derive(Serialize, Deserialize)]
struct PointDoc {
    color: [f32; 3],
    intensity: f32,
    range: f32,
}

impl PointDoc {
    fn from_light(light: &PointLight) -> Result<Self, String> {
        Ok(Self {
            color: light.color.to_array(),
            intensity: light.intensity,
            range: light.range,
        })
    }

    fn into_light(self) -> Result<PointLight, String> {
        Ok(PointLight {
            color: finite_vec("color", self.color)?,
            intensity: finite("intensity", self.intensity)?,
            range: finite("range", self.range)?,
        })
    }
}

#[derive(Serialize, Deserialize)]
struct SpotDoc {
    color: [f32; 3],
    intensity: f32,
    range: f32,
    inner_angle: f32,
    outer_angle: f32,
}

impl SpotDoc {
    fn from_light(light: &SpotLight) -> Result<Self, String> {
        Ok(Self {
            color: light.color.to_array(),
            intensity: light.intensity,
            range: light.range,
            inner_angle: light.inner_angle,
            outer_angle: light.outer_angle,
        })
    }

    fn into_light(self) -> Result<SpotLight, String> {
        Ok(SpotLight {
            color: finite_vec("color", self.color)?,
            intensity: finite("intensity", self.intensity)?,
            range: finite("range", self.range)?,
            inner_angle: finite("inner_angle", self.inner_angle)?,
            outer_angle: finite("outer_angle", self.outer_angle)?,
        })
    }
}

/// A mesh renderer as a scene file stores it: names, not handles.
#[derive(Serialize, Deserialize)]
struct MeshRendererDoc {
    mesh: String,
    material: String,
    #[serde(default = "cast_shadows_default", skip_serializing_if = "is_true")]
    cast_shadows: bool,
}

fn cast_shadows_default() -> bool {
    true
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_true(value: &bool) -> bool {
    *value
}

impl MeshRendererDoc {
    fn from_renderer(world: &World, renderer: &MeshRenderer) -> Result<Self, String> {
        let names = world.get_resource::<AssetNames>();
        let mesh = names
            .and_then(|n| n.mesh_name(renderer.mesh))
            .ok_or_else(|| {
                format!(
                    "mesh {} has no name (name it in the scene's AssetNames to save it)",
                    renderer.mesh.0
                )
            })?;
        let material = names
            .and_then(|n| n.material_name(renderer.material))
            .ok_or_else(|| {
                format!(
                    "material {} has no name (name it in the scene's AssetNames to save it)",
                    renderer.material.0
                )
            })?;
        Ok(Self {
            mesh: mesh.to_owned(),
            material: material.to_owned(),
            cast_shadows: renderer.cast_shadows,
        })
    }

    fn into_renderer(world: &World, doc: Self) -> Result<MeshRenderer, String> {
        let names = world.get_resource::<AssetNames>();
        let mesh = names
            .and_then(|n| n.mesh(&doc.mesh))
            .ok_or_else(|| format!("no mesh is named {:?} in this scene", doc.mesh))?;
        let material = names
            .and_then(|n| n.material(&doc.material))
            .ok_or_else(|| format!("no material is named {:?} in this scene", doc.material))?;
        Ok(MeshRenderer {
            mesh,
            material,
            cast_shadows: doc.cast_shadows,
        })
    }
}
