//! Making objects from the editor: an empty object, a built-in shape or a
//! model file, each as one undo step; spawning the scene's model files.

use std::path::PathBuf;

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

    /// Adds an object showing the glTF model at `path` (relative to the
    /// [model folder](Self::model_folder)), as one undo step, selects it
    /// and spawns the model. Scene files store the object with its
    /// [`ModelFile`](crate::scene_file::ModelFile), not the model's
    /// objects.
    ///
    /// # Errors
    /// [`EditError`] for a path that is absolute or leaves the folder (the
    /// scene is unchanged). A model that does not load is in the
    /// [status](Self::status); the object stays, showing nothing.
    pub fn add_model(&mut self, engine: &mut Engine, path: &str) -> Result<ObjectId, EditError> {
        if self.mode != super::EditorMode::Editing {
            return Err(EditError::Playing);
        }
        let id = engine.scene_mut().reserve_id();
        let refused = |reason: String| EditError::Component {
            object: id,
            type_name: "taos.Model".to_owned(),
            reason,
        };
        let file = crate::scene_file::ModelFile::new(path).map_err(|e| refused(e.to_string()))?;
        let value = serde_json::to_string(&file).map_err(|e| refused(e.to_string()))?;
        let name = path.rsplit('/').next().unwrap_or(path).to_owned();
        let parent = self.selected;
        let position = if parent.is_some() {
            Vec3::ZERO
        } else {
            self.point_ahead(engine)
        };
        self.apply(
            engine,
            EditCommand::Batch(vec![
                EditCommand::Create {
                    id: Some(id),
                    name,
                    parent,
                    transform: Transform::from_position(position),
                },
                EditCommand::SetComponent {
                    object: id,
                    type_name: "taos.Model".to_owned(),
                    value: Some(value),
                },
            ]),
        )?;
        self.select(Some(id));
        self.sync_models(engine);
        Ok(id)
    }

    /// The folder model files are read from: [`model_folder`](Self::model_folder),
    /// or the scene file's.
    #[must_use]
    pub fn models_folder(&self) -> PathBuf {
        self.model_folder
            .clone()
            .unwrap_or_else(|| self.file.parent().map(PathBuf::from).unwrap_or_default())
    }

    /// Spawns the models of objects whose [`ModelFile`](crate::scene_file::ModelFile)
    /// is new or changed (after a load, an edit, an undo); failures go to
    /// the status. Done every frame while the editor is open.
    pub fn sync_models(&mut self, engine: &mut Engine) {
        let report = engine.spawn_model_files(&self.models_folder());
        if let Some(error) = report.errors.first() {
            self.status = error.to_string();
        }
    }

    /// The point [`PLACE_AHEAD`] metres along the editor camera's view (the
    /// origin without one).
    fn point_ahead(&self, engine: &Engine) -> Vec3 {
        self.view
            .object
            .and_then(|camera| engine.scene().world_matrix(camera))
            .map_or(Vec3::ZERO, |world| {
                Vec3::from(world.translation) + world.transform_vector3(Vec3::NEG_Z) * PLACE_AHEAD
            })
    }
}
