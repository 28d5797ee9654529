//! The windowed game: the launcher, then play, with egui on top.

#![allow(dead_code, reason = "wired into the window driver in the next commit")]

mod hud;
mod launcher;
mod overlay;
