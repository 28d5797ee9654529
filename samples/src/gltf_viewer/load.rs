//! Loading a model without freezing the viewer: the CPU import runs on a
//! worker thread and reports its progress over a channel; the window shows
//! a progress bar once the load has taken longer than [`SHOW_AFTER`]. The
//! headless viewer loads on its own thread and prints the same progress.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use taos_engine::time::{Duration, Instant};

use taos_engine::gltf::{GltfError, GltfModel, LoadOptions, LoadProgress};

/// Loads shorter than this show no progress (it would only flicker).
pub const SHOW_AFTER: Duration = Duration::from_millis(500);

enum Message {
    Progress(LoadProgress),
    /// Boxed: a model is large beside a progress report.
    Done(Box<Result<GltfModel, GltfError>>),
}

/// A model loading on a worker thread.
pub struct BackgroundLoad {
    path: PathBuf,
    messages: Receiver<Message>,
    latest: Option<LoadProgress>,
    started: Instant,
}

impl std::fmt::Debug for BackgroundLoad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackgroundLoad")
            .field("path", &self.path)
            .field("latest", &self.latest)
            .finish_non_exhaustive()
    }
}

impl BackgroundLoad {
    /// Starts importing `path` on a new thread, with the default
    /// [`LoadOptions`].
    #[must_use]
    pub fn start(path: PathBuf) -> Self {
        Self::start_with_options(path, LoadOptions::default())
    }

    /// Starts importing `path` on a new thread with `options` (the
    /// decoded-data budget and the folders external files may come from).
    #[must_use]
    pub fn start_with_options(path: PathBuf, options: LoadOptions) -> Self {
        let (sender, messages) = mpsc::channel();
        let worker_path = path.clone();
        std::thread::spawn(move || {
            let progress_sender = sender.clone();
            let result = GltfModel::load_with_options(&worker_path, &options, &mut |progress| {
                let _ = progress_sender.send(Message::Progress(progress));
            });
            // The viewer may have closed meanwhile: nobody to tell.
            let _ = sender.send(Message::Done(Box::new(result)));
        });
        Self {
            path,
            messages,
            latest: None,
            started: Instant::now(),
        }
    }

    /// The file being loaded.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the worker's reports: the model (or its error) once it is done.
    pub fn poll(&mut self) -> Option<Result<GltfModel, GltfError>> {
        loop {
            match self.messages.try_recv() {
                Ok(Message::Progress(progress)) => self.latest = Some(progress),
                Ok(Message::Done(result)) => return Some(*result),
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => return Some(Err(self.stopped())),
            }
        }
    }

    /// Blocks until the worker is done.
    ///
    /// # Errors
    /// The import's error.
    pub fn wait(mut self) -> Result<GltfModel, GltfError> {
        loop {
            match self.messages.recv() {
                Ok(Message::Progress(progress)) => self.latest = Some(progress),
                Ok(Message::Done(result)) => return *result,
                Err(_) => return Err(self.stopped()),
            }
        }
    }

    fn stopped(&self) -> GltfError {
        GltfError::Io {
            file: self.path.display().to_string(),
            source: std::io::Error::other("the loading thread stopped"),
        }
    }

    /// The last progress report, once the load has run past [`SHOW_AFTER`].
    #[must_use]
    pub fn visible_progress(&self) -> Option<LoadProgress> {
        self.latest.filter(|_| self.started.elapsed() >= SHOW_AFTER)
    }
}

/// Prints progress lines to stderr for a load that runs past
/// [`SHOW_AFTER`]: one per stage, and one per tenth of a long stage.
#[derive(Debug)]
pub struct ProgressPrinter {
    file: String,
    started: Instant,
    last: Option<(LoadProgress, u32)>,
}

impl ProgressPrinter {
    /// A printer for loading `file`, starting its clock now.
    #[must_use]
    pub fn new(file: &Path) -> Self {
        Self {
            file: file.display().to_string(),
            started: Instant::now(),
            last: None,
        }
    }

    /// Takes one report; prints it when it is worth a line.
    pub fn report(&mut self, progress: LoadProgress) {
        if let Some(line) = self.line(progress, self.started.elapsed()) {
            eprintln!("{line}");
        }
    }

    /// The line for `progress` reported `elapsed` into the load, if any.
    fn line(&mut self, progress: LoadProgress, elapsed: Duration) -> Option<String> {
        let tenth = (progress.fraction() * 10.0) as u32;
        let news = match self.last {
            None => true,
            Some((last, last_tenth)) => last.stage != progress.stage || tenth > last_tenth,
        };
        if elapsed < SHOW_AFTER || !news {
            return None;
        }
        self.last = Some((progress, tenth));
        Some(format!(
            "loading {}: {progress} ({:.0}%)",
            self.file,
            progress.fraction() * 100.0
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taos_engine::gltf::LoadStage;

    #[test]
    fn quick_loads_print_nothing_and_long_ones_a_line_per_stage_or_tenth() {
        let mut printer = ProgressPrinter::new(Path::new("big.glb"));
        let at = |stage, done, total| LoadProgress { stage, done, total };
        let early = Duration::from_millis(100);
        let late = Duration::from_secs(2);
        assert_eq!(printer.line(at(LoadStage::Parsing, 1, 1), early), None);
        let first = printer.line(at(LoadStage::Meshes, 0, 1000), late);
        assert_eq!(
            first.as_deref(),
            Some("loading big.glb: reading meshes 0/1000 (55%)")
        );
        assert_eq!(printer.line(at(LoadStage::Meshes, 1, 1000), late), None);
        assert!(
            printer
                .line(at(LoadStage::Meshes, 500, 1000), late)
                .is_some()
        );
        assert!(printer.line(at(LoadStage::Nodes, 0, 10), late).is_some());
    }

    #[test]
    fn a_background_load_delivers_the_model_or_its_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = taos_engine::gltf::test_models::textured_box(dir.path()).unwrap();
        let model = BackgroundLoad::start(path).wait().unwrap();
        assert_eq!(model.meshes.len(), 1);
        let missing = BackgroundLoad::start(dir.path().join("missing.gltf"));
        let error = missing.wait().unwrap_err();
        assert!(error.to_string().contains("missing.gltf"), "{error}");
    }
}
