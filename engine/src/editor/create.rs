//! Making objects from the editor: an empty object or a built-in shape,
//! as one undo step.

use glam::Vec3;

use super::Editor;
use crate::edit::{EditCommand, EditError};
use crate::{DEFAULT_MATERIAL, Engine, ObjectId, Shape, Transform};

/// How far in front of the editor camera a new root object is placed.
const PLACE_AHEAD: f32 = 5.0;

impl Editor {
    /// Creates an object, as one undo step, and selects it: empty for
    /// `None`, or a built-in [`Shape`] with the default material. It goes
    /// under the selection (at its origin), or, with nothing selected, to
    /// the root, 5 m in front of the editor camera.
    ///
    /// # Errors
    /// [`EditError`] (the game is playing); the scene is unchanged then.
    pub fn create(
        &mut self,
        engine: &mut Engine,
        shape: Option<Shape>,
    ) -> Result<ObjectId, EditError> {
        let parent = self.selected;
        let position = if parent.is_some() {
            Vec3::ZERO
        } else {
            self.point_ahead(engine)
        };
        let id = engine.scene_mut().reserve_id();
        let name = shape.map_or("New object", Shape::label).to_owned();
        let mut steps = vec![EditCommand::Create {
            id: Some(id),
            name,
            parent,
            transform: Transform::from_position(position),
        }];
        if let Some(shape) = shape {
            let renderer = format!(
                r#"{{"mesh":"{}","material":"{DEFAULT_MATERIAL}"}}"#,
                shape.asset_name()
            );
            steps.push(EditCommand::SetComponent {
                object: id,
                type_name: "taos.MeshRenderer".to_owned(),
                value: Some(renderer),
            });
        }
        self.apply(engine, EditCommand::Batch(steps))?;
        self.select(Some(id));
        Ok(id)
    }

    /// The point [`PLACE_AHEAD`] metres along the editor camera's view (the
    /// origin without one).
    fn point_ahead(&self, engine: &Engine) -> Vec3 {
        self.camera
            .and_then(|camera| engine.scene().world_matrix(camera))
            .map_or(Vec3::ZERO, |world| {
                Vec3::from(world.translation) + world.transform_vector3(Vec3::NEG_Z) * PLACE_AHEAD
            })
    }
}
