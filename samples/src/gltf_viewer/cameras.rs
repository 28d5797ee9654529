//! Which camera the viewer draws from: its own orbit camera, or one of the
//! model's cameras (C cycles through them, in node order, and back).

use taos_engine::{Engine, GameObject};

/// The cameras the viewer cycles through and the one in use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct CameraCycle {
    /// 0: the viewer's orbit camera; `n`: the model's `n`th camera.
    current: usize,
}

impl CameraCycle {
    /// Goes to the next camera (after the model's last, back to the
    /// viewer's) and returns the object to draw from.
    pub(super) fn next(&mut self, viewer: GameObject, model: &[GameObject]) -> GameObject {
        self.current = (self.current + 1) % (model.len() + 1);
        self.chosen(viewer, model)
    }

    /// Back to the viewer's own camera (a new model was loaded).
    pub(super) fn reset(&mut self) {
        self.current = 0;
    }

    /// The object to draw from now.
    pub(super) fn chosen(&self, viewer: GameObject, model: &[GameObject]) -> GameObject {
        self.current
            .checked_sub(1)
            .and_then(|index| model.get(index).copied())
            .unwrap_or(viewer)
    }

    /// "viewer camera", or "model camera 2 of 3", for the panel.
    pub(super) fn label(&self, model_cameras: usize) -> String {
        match self.current {
            0 => format!("viewer camera (C: {model_cameras} model camera(s))"),
            n => format!("model camera {n} of {model_cameras} (C: next)"),
        }
    }

    /// Cycles and tells the engine.
    pub(super) fn advance(
        &mut self,
        engine: &mut Engine,
        viewer: GameObject,
        model: &[GameObject],
    ) {
        let camera = self.next(viewer, model);
        engine.set_camera(Some(camera));
    }
}

#[cfg(test)]
mod tests {
    use taos_engine::Scene;

    use super::*;

    #[test]
    fn c_goes_through_the_models_cameras_and_back_to_the_viewers() {
        let mut scene = Scene::new();
        let viewer = scene.spawn("Viewer");
        let model: Vec<_> = ["A", "B"]
            .into_iter()
            .map(|name| scene.spawn(name))
            .collect();
        let mut cycle = CameraCycle::default();
        assert_eq!(cycle.chosen(viewer, &model), viewer);
        assert_eq!(cycle.next(viewer, &model), model[0]);
        assert_eq!(cycle.label(2), "model camera 1 of 2 (C: next)");
        assert_eq!(cycle.next(viewer, &model), model[1]);
        assert_eq!(
            cycle.next(viewer, &model),
            viewer,
            "after the last, the viewer's"
        );
        assert_eq!(cycle.next(viewer, &[]), viewer, "a model without cameras");
        cycle.next(viewer, &model);
        cycle.reset();
        assert_eq!(cycle.chosen(viewer, &model), viewer);
    }
}
