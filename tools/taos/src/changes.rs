//! Changed asset files, from the watcher to every page listening.
//!
//! `taos web serve --watch DIR` watches the game's asset folder, copies
//! each changed file into the served `assets/` folder and publishes its
//! path here; each page connected to `/__taos/changes` (server-sent
//! events) gets it and hands it to the game's hot reload.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// The URL path pages listen on.
pub const CHANGES_PATH: &str = "/__taos/changes";

/// Where changed paths are published; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct ChangeFeed {
    listeners: Arc<Mutex<Vec<Sender<String>>>>,
}

impl ChangeFeed {
    /// A feed with no listener.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A new listener: gets every path published from now on.
    #[must_use]
    pub fn subscribe(&self) -> Receiver<String> {
        let (sender, receiver) = mpsc::channel();
        if let Ok(mut listeners) = self.listeners.lock() {
            listeners.push(sender);
        }
        receiver
    }

    /// Sends `asset_path` (relative to the asset folder, `/`-separated) to
    /// every listener; listeners that went away are dropped.
    pub fn publish(&self, asset_path: &str) {
        if let Ok(mut listeners) = self.listeners.lock() {
            listeners.retain(|listener| listener.send(asset_path.to_owned()).is_ok());
        }
    }

    /// How many listeners are connected.
    #[must_use]
    pub fn listeners(&self) -> usize {
        self.listeners.lock().map_or(0, |l| l.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listener_gets_each_path_and_gone_ones_are_dropped() {
        let feed = ChangeFeed::new();
        let first = feed.subscribe();
        let second = feed.subscribe();
        feed.publish("models/box.glb");
        assert_eq!(first.recv().unwrap(), "models/box.glb");
        assert_eq!(second.recv().unwrap(), "models/box.glb");
        drop(second);
        feed.publish("a.png");
        assert_eq!(feed.listeners(), 1);
        assert_eq!(first.recv().unwrap(), "a.png");
    }
}
