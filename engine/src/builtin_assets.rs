//! The engine's built-in shapes and default material: uploaded once when an
//! [`Engine`] is built and named in its scene's
//! [`AssetNames`](crate::scene_file::AssetNames), so a scene file can say
//! `{"mesh": "taos.cube", "material": "taos.default"}` and load in any
//! game, and the editor can create a cube without the game making one.

use glam::Vec3;
use taos_renderer::Renderer;
use taos_renderer::resources::{MaterialId, MeshData, MeshId, PbrMaterial};

use crate::scene_file::AssetNames;
use crate::{AssetHandle, Engine, Scene};

/// A built-in shape, each a unit-sized mesh centred on its object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A cube of edge 1.
    Cube,
    /// A sphere of diameter 1.
    Sphere,
    /// A 1 x 1 square in the XZ plane, facing +Y.
    Plane,
}

impl Shape {
    /// Every shape, in menu order.
    pub const ALL: [Self; 3] = [Self::Cube, Self::Sphere, Self::Plane];

    /// The mesh's name in scene files (`taos.cube`, `taos.sphere`,
    /// `taos.plane`).
    #[must_use]
    pub fn asset_name(self) -> &'static str {
        match self {
            Self::Cube => "taos.cube",
            Self::Sphere => "taos.sphere",
            Self::Plane => "taos.plane",
        }
    }

    /// The shape's name for people ("Cube").
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Cube => "Cube",
            Self::Sphere => "Sphere",
            Self::Plane => "Plane",
        }
    }

    fn mesh_data(self) -> MeshData {
        match self {
            Self::Cube => MeshData::cube(1.0),
            Self::Sphere => MeshData::sphere(0.5, 32, 16),
            Self::Plane => MeshData::plane(1.0),
        }
    }
}

/// The default material's name in scene files: a light grey, fairly rough
/// surface.
pub const DEFAULT_MATERIAL: &str = "taos.default";

/// The built-in assets' ids in the engine's renderer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BuiltinAssets {
    meshes: [MeshId; 3],
    material: MaterialId,
}

impl BuiltinAssets {
    pub(crate) fn upload(renderer: &mut Renderer) -> Self {
        let (assets, gpu) = renderer.assets_mut();
        let meshes =
            Shape::ALL.map(|shape| assets.add_mesh(gpu, shape.asset_name(), &shape.mesh_data()));
        let material = assets.add_material(PbrMaterial {
            roughness: 0.7,
            ..PbrMaterial::color(Vec3::splat(0.75))
        });
        Self { meshes, material }
    }

    fn mesh(&self, shape: Shape) -> MeshId {
        self.meshes[Shape::ALL.iter().position(|s| *s == shape).unwrap_or(0)]
    }

    /// Names the assets in `scene`'s [`AssetNames`] (a game that used one
    /// of the names for its own asset keeps it).
    pub(crate) fn name_in(&self, scene: &mut Scene) {
        let world = scene.world_mut();
        let mut names = world.get_resource_or_insert_with(AssetNames::default);
        for shape in Shape::ALL {
            if names.mesh(shape.asset_name()).is_none() {
                let _ = names.name_mesh(shape.asset_name(), self.mesh(shape).handle());
            }
        }
        if names.material(DEFAULT_MATERIAL).is_none() {
            let _ = names.name_material(DEFAULT_MATERIAL, self.material.handle());
        }
    }
}

impl Engine {
    /// The mesh of a built-in shape (named [`Shape::asset_name`] in scene
    /// files).
    #[must_use]
    pub fn shape_mesh(&self, shape: Shape) -> MeshId {
        self.builtins.mesh(shape)
    }

    /// The default material (named [`DEFAULT_MATERIAL`] in scene files).
    #[must_use]
    pub fn default_material(&self) -> MaterialId {
        self.builtins.material
    }

    /// Names the built-in shapes and the default material in the current
    /// scene's [`AssetNames`] again: done when the engine is built and when
    /// [`set_game_loop`](Self::set_game_loop) brings a new scene; call it
    /// after replacing the scene's `AssetNames` some other way.
    pub fn name_builtin_assets(&mut self) {
        let builtins = self.builtins;
        builtins.name_in(self.scene_mut());
    }
}
