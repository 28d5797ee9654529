//! The scene tree as text: one line per object, indented under its parent,
//! with what it carries (`[mesh]`, `[camera]`, `[point light]`...).

use std::fmt::Write as _;

use taos_engine::prelude::*;
use taos_engine::{AnimationPlayer, DirectionalLight, PointLight, Scene, SpotLight};

/// The subtree under `root`, one object per line, two spaces of indent per
/// level: `name [mesh, camera]`.
#[must_use]
pub fn scene_tree(scene: &Scene, root: GameObject) -> String {
    let mut out = String::new();
    let mut stack = vec![(root, 0usize)];
    while let Some((object, depth)) = stack.pop() {
        let name = scene.name(object).unwrap_or("(unnamed)");
        let _ = write!(out, "{:indent$}{name}", "", indent = depth * 2);
        let tags = tags(scene, object);
        if !tags.is_empty() {
            let _ = write!(out, " [{}]", tags.join(", "));
        }
        out.push('\n');
        let children: Vec<_> = scene.children(object).collect();
        stack.extend(children.into_iter().rev().map(|child| (child, depth + 1)));
    }
    out
}

/// What `object` carries that a viewer shows.
fn tags(scene: &Scene, object: GameObject) -> Vec<&'static str> {
    let checks: [(bool, &'static str); 6] = [
        (
            scene.get_component::<MeshRenderer>(object).is_some(),
            "mesh",
        ),
        (scene.get_component::<Camera>(object).is_some(), "camera"),
        (
            scene.get_component::<DirectionalLight>(object).is_some(),
            "directional light",
        ),
        (
            scene.get_component::<PointLight>(object).is_some(),
            "point light",
        ),
        (
            scene.get_component::<SpotLight>(object).is_some(),
            "spot light",
        ),
        (
            scene.get_component::<AnimationPlayer>(object).is_some(),
            "animation",
        ),
    ];
    checks
        .into_iter()
        .filter_map(|(has, tag)| has.then_some(tag))
        .collect()
}
