//! What the scene tells diagnostics: its label, and how long each stage of
//! an update took (when a loop or a tool turns timing on).

use super::{Scene, StageProfiler};
use crate::clock::Clock;
use crate::stages::{Stage, StageTimings};

impl Scene {
    /// Names the scene for diagnostics (the watchdog's warnings say which
    /// scene stopped answering): "World", "Main menu", a level's file name.
    pub fn set_label(&mut self, label: impl Into<String>) {
        self.label = Some(label.into());
    }

    /// The scene's label ([`set_label`](Self::set_label)), if it has one.
    #[must_use]
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// Times every stage of [`update`](Self::update) and
    /// [`update_render`](Self::update_render) (each behaviour type, the systems,
    /// transform refreshes) with `clock`; `None` stops timing. The
    /// game loop sets this to its own clock.
    pub fn set_stage_clock(&mut self, clock: Option<std::sync::Arc<dyn Clock>>) {
        self.profiler = clock.map(|clock| StageProfiler {
            clock,
            timings: StageTimings::default(),
        });
    }

    /// Stage timings gathered since they were last cleared, if timing is on.
    #[must_use]
    pub fn stage_timings(&self) -> Option<&StageTimings> {
        self.profiler.as_ref().map(|p| &p.timings)
    }

    /// Clears the gathered stage timings.
    pub fn clear_stage_timings(&mut self) {
        if let Some(profiler) = &mut self.profiler {
            profiler.timings.clear();
        }
    }

    /// The profiler's clock reading, when timing is on.
    pub(crate) fn stage_start(&self) -> Option<std::time::Duration> {
        self.profiler.as_ref().map(|p| p.clock.now())
    }

    /// Adds the time since `start` to `stage`.
    pub(crate) fn stage_end(&mut self, stage: Stage, start: Option<std::time::Duration>) {
        if let (Some(profiler), Some(start)) = (&mut self.profiler, start) {
            let spent = profiler.clock.now().saturating_sub(start);
            profiler.timings.add(stage, spent);
        }
    }
}
