//! Scene behaviour: lifecycle, clock, systems, enabled flags, queries.

use std::sync::{Arc, Mutex};

use taos_core::ObjectId;
use taos_core::deps::bevy_ecs::prelude::{Query, Res, With};
use taos_core::prelude::*;

type Log = Arc<Mutex<Vec<String>>>;

struct Recorder {
    tag: &'static str,
    log: Log,
}

impl Behaviour for Recorder {
    fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.log
            .lock()
            .unwrap()
            .push(format!("{} attach {:?}", self.tag, cx.object()));
        Ok(())
    }
    fn on_detach(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.log
            .lock()
            .unwrap()
            .push(format!("{} detach", self.tag));
        Ok(())
    }
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        assert_eq!(dt, cx.time().delta(), "dt is the scene clock's delta");
        self.log.lock().unwrap().push(format!(
            "{} update {} {}",
            self.tag,
            cx.time().frame_count(),
            dt
        ));
        Ok(())
    }
    fn update_render(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.log
            .lock()
            .unwrap()
            .push(format!("{} render", self.tag));
        Ok(())
    }
}

fn recorder(tag: &'static str, log: &Log) -> Recorder {
    Recorder {
        tag,
        log: log.clone(),
    }
}

fn take(log: &Log) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}

#[test]
fn lifecycle_runs_in_order_parents_first_and_skips_disabled_subtrees() {
    let log = Log::default();
    let mut scene = Scene::new();
    let root = scene.spawn("root");
    let child = scene.spawn_child(root, "child").unwrap();
    // Attach the child's first: update order is still parent first.
    scene.add_behaviour(child, recorder("child", &log)).unwrap();
    scene.add_behaviour(root, recorder("root", &log)).unwrap();
    assert_eq!(take(&log).len(), 2);

    scene.tick(0.01);
    assert_eq!(
        take(&log),
        [
            "root update 1 0.01",
            "child update 1 0.01",
            "root render",
            "child render"
        ]
    );

    scene.set_enabled(root, false).unwrap();
    scene.tick(0.01);
    assert!(
        take(&log).is_empty(),
        "a disabled parent disables its subtree"
    );
    assert_eq!(scene.is_enabled(child), Some(true));
    assert_eq!(scene.is_active(child), Some(false));

    scene.set_enabled(root, true).unwrap();
    scene.remove(root).unwrap();
    assert_eq!(take(&log), ["child detach", "root detach"]);
}

#[test]
fn behaviours_can_be_fetched_listed_and_removed() {
    let log = Log::default();
    let mut scene = Scene::new();
    let o = scene.spawn("o");
    scene.add_behaviour(o, recorder("a", &log)).unwrap();
    scene.add_behaviour(o, recorder("b", &log)).unwrap();
    assert_eq!(scene.behaviour::<Recorder>(o).unwrap().tag, "a");
    let tags: Vec<_> = scene.behaviours::<Recorder>(o).map(|r| r.tag).collect();
    assert_eq!(tags, ["a", "b"]);
    scene.behaviour_mut::<Recorder>(o).unwrap().tag = "a2";
    assert!(scene.remove_behaviour::<Recorder>(o));
    assert_eq!(take(&log).last().unwrap(), "a2 detach");
    assert_eq!(scene.behaviours::<Recorder>(o).count(), 1);
}

struct Mover;

impl Behaviour for Mover {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        cx.position_mut().x += dt;
        Ok(())
    }
}

#[test]
fn time_scale_zero_pauses_behaviours_but_not_unscaled_time() {
    let mut scene = Scene::new();
    let o = scene.spawn("o");
    scene.add_behaviour(o, Mover).unwrap();
    scene.tick(0.05);
    scene.time_mut().set_scale(0.0).unwrap();
    scene.tick(0.05);
    scene.tick(5.0); // the step is clamped to 0.1 before scaling
    let x = scene.transform(o).unwrap().position.x;
    assert!((x - 0.05).abs() < 1e-6, "x = {x}");
    let time = scene.time();
    // Real seconds are not clamped: 0.05 + 0.05 + 5.0.
    assert!((time.unscaled_elapsed() - 5.1).abs() < 1e-6);
    assert!((time.elapsed() - 0.05).abs() < 1e-6);
    assert_eq!(time.frame_count(), 3);
}

#[derive(taos_core::deps::bevy_ecs::component::Component)]
struct Velocity(Vec3);

fn integrate(time: Res<'_, Time>, mut movers: Query<'_, '_, (&mut Transform, &Velocity)>) {
    for (mut transform, velocity) in &mut movers {
        transform.position += velocity.0 * time.delta();
    }
}

#[test]
fn plain_bevy_systems_run_on_the_same_world() {
    let mut scene = Scene::new();
    let parent = scene.spawn("parent");
    let child = scene.spawn_child(parent, "child").unwrap();
    scene
        .add_component(parent, Velocity(Vec3::X * 2.0))
        .unwrap();
    scene.add_systems(integrate);
    scene.tick(0.05);
    scene.tick(0.05);
    let p = scene.object_mut(child).unwrap().world_position();
    assert!((p.x - 0.2).abs() < 1e-6, "{p}");
    // Systems that only read also work.
    fn count(q: Query<'_, '_, (), With<Transform>>) {
        assert_eq!(q.iter().count(), 2);
    }
    scene.add_systems(count);
    scene.tick(0.01);
}

#[test]
fn components_add_get_remove() {
    let mut scene = Scene::new();
    let o = scene.spawn("light");
    scene
        .add_component(o, PointLight::new(Vec3::ONE, 2.0, 10.0))
        .unwrap();
    assert_eq!(scene.get_component::<PointLight>(o).unwrap().intensity, 2.0);
    scene.get_component_mut::<PointLight>(o).unwrap().intensity = 3.0;
    let removed = scene.remove_component::<PointLight>(o).unwrap();
    assert_eq!(removed.intensity, 3.0);
    assert!(scene.get_component::<PointLight>(o).is_none());
}

#[test]
fn cameras_rebuild_view_and_projection_in_update_render() {
    let mut scene = Scene::new();
    let rig = scene.spawn_with("rig", Transform::from_position(Vec3::new(0.0, 3.0, 0.0)));
    let cam = scene.spawn_child(rig, "camera").unwrap();
    scene
        .object_mut(cam)
        .unwrap()
        .set_position(Vec3::new(0.0, 0.0, 6.0));
    scene
        .add_component(
            cam,
            Camera::perspective(60.0, 0.1, 100.0, 16.0 / 9.0).unwrap(),
        )
        .unwrap();
    assert_eq!(scene.find_camera(), Some(cam));
    scene.tick(0.016);
    let camera = scene.get_component::<Camera>(cam).unwrap();
    // The camera sits at (0, 3, 6): the world origin is 6 units in front, 3 below.
    let origin_in_view = camera.view().transform_point3(Vec3::ZERO);
    assert!(origin_in_view.abs_diff_eq(Vec3::new(0.0, -3.0, -6.0), 1e-5));
    let clip = camera.view_projection() * Vec3::new(0.0, 3.0, 0.0).extend(1.0);
    let ndc = clip.truncate() / clip.w;
    assert!(ndc.x.abs() < 1e-5 && ndc.y.abs() < 1e-5 && (0.0..1.0).contains(&ndc.z));
}

#[test]
fn bad_camera_parameters_are_clear_errors() {
    assert!(Camera::perspective(0.0, 0.1, 100.0, 1.0).is_err());
    assert!(Camera::perspective(60.0, 0.0, 100.0, 1.0).is_err());
    assert!(Camera::perspective(60.0, 1.0, 0.5, 1.0).is_err());
    assert!(Camera::perspective(60.0, 0.1, 100.0, f32::NAN).is_err());
    let err = Camera::orthographic(-1.0, 0.0, 10.0, 1.0).unwrap_err();
    assert!(err.to_string().contains("half_height"), "{err}");
}

#[test]
fn find_sun_mesh_renderers_and_components_respect_hierarchy_and_enabled() {
    let mut scene = Scene::new();
    let a = scene.spawn("a");
    let a_child = scene.spawn_child(a, "a child").unwrap();
    let b = scene.spawn_with("b", Transform::from_position(Vec3::X));
    let b_child = scene.spawn_child(b, "b child").unwrap();
    let sun = DirectionalLight::new(Vec3::NEG_Y, Vec3::ONE, 3.0);
    scene.add_component(a_child, sun).unwrap();
    scene.add_component(b, sun).unwrap();
    let renderer = MeshRenderer::new(MeshHandle(1), MaterialHandle(2));
    scene.add_component(a_child, renderer).unwrap();
    scene.add_component(b_child, renderer).unwrap();

    // Hierarchy order is depth-first: a's subtree comes before the next root b.
    assert_eq!(scene.find_sun_light(), Some(a_child));
    assert_eq!(scene.get_components::<DirectionalLight>(), vec![a_child, b]);

    let mut draws = Vec::with_capacity(8);
    scene.collect_mesh_renderers_into(&mut draws);
    assert_eq!(draws.len(), 2);
    let b_draw = draws.iter().find(|d| d.object == b_child).unwrap();
    assert_eq!(b_draw.world.translation.x, 1.0);
    let capacity = draws.capacity();

    scene.set_enabled(a, false).unwrap();
    assert_eq!(scene.find_sun_light(), Some(b));
    scene.collect_mesh_renderers_into(&mut draws);
    assert_eq!(draws.len(), 1);
    assert_eq!(draws[0].object, b_child);
    assert_eq!(draws.capacity(), capacity, "the caller's Vec is reused");
    assert_eq!(scene.collect_mesh_renderers().len(), 1);
}

#[test]
fn ids_are_stable_overwritable_and_unique() {
    let mut scene = Scene::new();
    let a = scene.spawn("a");
    let b = scene.spawn("b");
    assert_ne!(scene.id(a), scene.id(b));
    scene.set_id(a, ObjectId(1000)).unwrap();
    assert_eq!(scene.find_by_id(ObjectId(1000)), Some(a));
    assert!(matches!(
        scene.set_id(b, ObjectId(1000)),
        Err(SceneError::DuplicateId { .. })
    ));
    let c = scene.spawn("c");
    assert!(
        scene.id(c).unwrap().0 > 1000,
        "fresh ids never collide with restored ones"
    );
    scene.set_name(a, "renamed").unwrap();
    assert_eq!(scene.name(a), Some("renamed"));
    scene.remove(a).unwrap();
    assert_eq!(scene.find_by_id(ObjectId(1000)), None);
}

#[test]
fn stale_handles_are_errors() {
    let mut scene = Scene::new();
    let a = scene.spawn("a");
    scene.remove(a).unwrap();
    assert_eq!(
        scene.add_component(a, Mover2).err(),
        Some(SceneError::StaleObject(a))
    );
    assert!(scene.add_behaviour(a, Mover).is_err());
    assert!(scene.world_matrix(a).is_none());
    assert!(scene.set_enabled(a, false).is_err());
}

#[derive(taos_core::deps::bevy_ecs::component::Component)]
struct Mover2;
