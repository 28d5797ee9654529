//! Picking: a click in the viewport selects the object drawn under the
//! pointer (a model's part selects the object showing the model).

use glam::Vec2;

use super::Editor;
use crate::scene_file::ModelPart;
use crate::{Engine, ObjectId};

impl Editor {
    /// Selects the object drawn at `pixel` (nothing over the sky).
    pub fn select_at(&mut self, engine: &Engine, pixel: Vec2) -> Option<ObjectId> {
        let scene = engine.scene();
        let picked = engine.pick(pixel).and_then(|hit| {
            // A model's part selects the object showing the model.
            let mut object = hit.object;
            while scene.get_component::<ModelPart>(object).is_some() {
                object = scene.parent(object)?;
            }
            scene.id(object)
        });
        self.select(picked);
        picked
    }
}
