//! The built-in controllers as scene files store them
//! (`taos.CameraController`, `taos.PlayerController`): their settings,
//! checked on load; keys and mouse buttons by name, written only when
//! rebound. What a controller learns while running (its body's velocity,
//! touches in progress) is not stored: a loaded controller starts where its
//! object stands.

use serde::{Deserialize, Serialize};

use super::types::{finite, finite_vec};
use crate::controllers::{
    CameraController, CameraMode, FlyKeys, MotorSettings, PlayerController, PlayerDrive,
    PlayerKeys, SwimSettings, TouchControls, TouchLayout,
};
use crate::game_loop::{Key, MouseButton};

fn key_name(key: Key) -> String {
    format!("{key:?}")
}

fn button_name(button: MouseButton) -> String {
    format!("{button:?}")
}

/// The one of `all` whose variant name is `name` (keys and buttons are
/// stored by their variant names).
fn named<T: Copy + std::fmt::Debug>(all: &[T], name: &str, what: &str) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|item| format!("{item:?}") == name)
        .ok_or_else(|| format!("no {what} is named {name:?}"))
}

fn key_named(name: &str) -> Result<Key, String> {
    named(&Key::ALL, name, "key")
}

fn button_named(name: &str) -> Result<MouseButton, String> {
    named(&MouseButton::ALL, name, "mouse button")
}

/// A positive, finite setting.
fn positive(what: &str, value: f32) -> Result<f32, String> {
    if finite(what, value)? > 0.0 {
        Ok(value)
    } else {
        Err(format!("{what} must be above 0: {value}"))
    }
}

fn keys_to_names<const N: usize>(keys: [Key; N], defaults: [Key; N]) -> Option<Vec<String>> {
    (keys != defaults).then(|| keys.into_iter().map(key_name).collect())
}

fn names_to_keys<const N: usize>(
    names: Option<Vec<String>>,
    defaults: [Key; N],
) -> Result<[Key; N], String> {
    let Some(names) = names else {
        return Ok(defaults);
    };
    if names.len() != N {
        return Err(format!("keys: {N} names expected, {} given", names.len()));
    }
    let mut keys = defaults;
    for (slot, name) in keys.iter_mut().zip(&names) {
        *slot = key_named(name)?;
    }
    Ok(keys)
}

/// The fly keys in stored order: forward, backward, left, right, up, down,
/// fast.
fn fly_slots(k: &mut FlyKeys) -> [&mut Key; 7] {
    [
        &mut k.forward,
        &mut k.backward,
        &mut k.left,
        &mut k.right,
        &mut k.up,
        &mut k.down,
        &mut k.fast,
    ]
}

fn fly_keys(mut k: FlyKeys) -> [Key; 7] {
    fly_slots(&mut k).map(|key| *key)
}

/// The player keys in stored order: forward, backward, left, right, jump,
/// run, crouch, fly.
fn player_slots(k: &mut PlayerKeys) -> [&mut Key; 8] {
    [
        &mut k.forward,
        &mut k.backward,
        &mut k.left,
        &mut k.right,
        &mut k.jump,
        &mut k.run,
        &mut k.crouch,
        &mut k.toggle_fly,
    ]
}

fn player_keys(mut k: PlayerKeys) -> [Key; 8] {
    player_slots(&mut k).map(|key| *key)
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ModeDoc {
    Orbit { target: [f32; 3], distance: f32 },
    Fly,
}

/// Sets `*slot` to the stored value, when the file holds one, checked by
/// `check` (a setting left out keeps the builder's value).
fn set<T, S>(
    slot: &mut T,
    stored: Option<S>,
    check: impl FnOnce(S) -> Result<T, String>,
) -> Result<(), String> {
    if let Some(value) = stored {
        *slot = check(value)?;
    }
    Ok(())
}

/// A [`CameraController`] in a scene file: `mode` is required, as the
/// builders ([`CameraController::orbit`], [`CameraController::fly`])
/// require it; a setting left out takes the value the builder gives.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CameraControllerDoc {
    mode: ModeDoc,
    #[serde(default)]
    yaw: Option<f32>,
    #[serde(default)]
    pitch: Option<f32>,
    #[serde(default)]
    rotate_speed: Option<f32>,
    #[serde(default)]
    zoom_step: Option<f32>,
    #[serde(default)]
    pan_speed: Option<f32>,
    #[serde(default)]
    min_distance: Option<f32>,
    #[serde(default)]
    max_distance: Option<f32>,
    #[serde(default)]
    always_look: Option<bool>,
    #[serde(default)]
    fly_speed: Option<f32>,
    #[serde(default)]
    fast_multiplier: Option<f32>,
    #[serde(default)]
    pad_look_speed: Option<f32>,
    /// Forward, backward, left, right, up, down, fast (when rebound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keys: Option<Vec<String>>,
    /// The rotate and pan buttons (when rebound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    buttons: Option<[String; 2]>,
}

impl CameraControllerDoc {
    pub(super) fn save(c: &CameraController) -> Self {
        let defaults = CameraController::fly();
        let buttons = (c.rotate_button, c.pan_button);
        Self {
            mode: match c.mode {
                CameraMode::Orbit { target, distance } => ModeDoc::Orbit {
                    target: target.to_array(),
                    distance,
                },
                CameraMode::Fly => ModeDoc::Fly,
            },
            yaw: Some(c.yaw),
            pitch: Some(c.pitch),
            rotate_speed: Some(c.rotate_speed),
            zoom_step: Some(c.zoom_step),
            pan_speed: Some(c.pan_speed),
            min_distance: Some(c.min_distance),
            max_distance: Some(c.max_distance),
            always_look: Some(c.always_look),
            fly_speed: Some(c.fly_speed),
            fast_multiplier: Some(c.fast_multiplier),
            pad_look_speed: Some(c.pad_look_speed),
            keys: keys_to_names(fly_keys(c.keys), fly_keys(defaults.keys)),
            buttons: (buttons != (defaults.rotate_button, defaults.pan_button))
                .then(|| [button_name(buttons.0), button_name(buttons.1)]),
        }
    }

    pub(super) fn load(self) -> Result<CameraController, String> {
        let mut c = match self.mode {
            ModeDoc::Orbit { target, distance } => CameraController::orbit(
                finite_vec("target", target)?,
                positive("distance", distance)?,
            ),
            ModeDoc::Fly => CameraController::fly(),
        };
        set(&mut c.yaw, self.yaw, |v| finite("yaw", v))?;
        set(&mut c.pitch, self.pitch, |v| finite("pitch", v))?;
        set(&mut c.rotate_speed, self.rotate_speed, |v| {
            finite("rotate_speed", v)
        })?;
        set(&mut c.zoom_step, self.zoom_step, |v| finite("zoom_step", v))?;
        set(&mut c.pan_speed, self.pan_speed, |v| finite("pan_speed", v))?;
        set(&mut c.min_distance, self.min_distance, |v| {
            positive("min_distance", v)
        })?;
        set(&mut c.max_distance, self.max_distance, |v| {
            positive("max_distance", v)
        })?;
        if c.min_distance > c.max_distance {
            return Err(format!(
                "min_distance {} is above max_distance {}",
                c.min_distance, c.max_distance
            ));
        }
        set(&mut c.always_look, self.always_look, Ok)?;
        set(&mut c.fly_speed, self.fly_speed, |v| finite("fly_speed", v))?;
        set(&mut c.fast_multiplier, self.fast_multiplier, |v| {
            finite("fast_multiplier", v)
        })?;
        set(&mut c.pad_look_speed, self.pad_look_speed, |v| {
            finite("pad_look_speed", v)
        })?;
        let keys = names_to_keys(self.keys, fly_keys(c.keys))?;
        for (slot, key) in fly_slots(&mut c.keys).into_iter().zip(keys) {
            *slot = key;
        }
        if let Some([rotate, pan]) = self.buttons {
            c.rotate_button = button_named(&rotate)?;
            c.pan_button = button_named(&pan)?;
        }
        Ok(c)
    }
}

/// A [`PlayerController`] in a scene file: every setting may be left out
/// (`{}` is [`PlayerController::default`]); one left out takes the value
/// the builder gives.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerControllerDoc {
    /// Body size, speeds, jump and gravity.
    #[serde(default)]
    body: Option<[f32; 12]>,
    /// Swim speeds, float depth and drag.
    #[serde(default)]
    swim: Option<[f32; 6]>,
    /// Steepest walkable slope (radians), step height and snap distance
    /// (metres); written only when they differ from the motor's defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ground: Option<[f32; 3]>,
    #[serde(default)]
    yaw: Option<f32>,
    #[serde(default)]
    pitch: Option<f32>,
    #[serde(default)]
    mouse_sensitivity: Option<f32>,
    #[serde(default)]
    mouse_look: Option<bool>,
    #[serde(default)]
    can_fly: Option<bool>,
    #[serde(default)]
    step_hz: Option<f32>,
    #[serde(default)]
    interpolate: Option<bool>,
    #[serde(default)]
    pad_look_speed: Option<f32>,
    /// On-screen controls on touch screens (the first-person layout).
    #[serde(default)]
    touch: Option<bool>,
    /// Forward, backward, left, right, jump, run, crouch, fly (when rebound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keys: Option<Vec<String>>,
}

/// The ground settings, when they are not the defaults.
fn ground(s: &MotorSettings) -> Option<[f32; 3]> {
    let d = MotorSettings::default();
    let stored = [s.max_slope, s.step_height, s.snap_distance];
    (stored != [d.max_slope, d.step_height, d.snap_distance]).then_some(stored)
}

fn body(s: &MotorSettings) -> [f32; 12] {
    [
        s.half_width,
        s.height,
        s.crouch_height,
        s.eye_height,
        s.crouch_eye_height,
        s.walk_speed,
        s.run_speed,
        s.crouch_speed,
        s.fly_speed,
        s.jump_speed,
        s.gravity,
        s.terminal_speed,
    ]
}

fn swim(s: &SwimSettings) -> [f32; 6] {
    [
        s.speed,
        s.run_speed,
        s.rise_speed,
        s.dive_speed,
        s.float_depth,
        s.drag,
    ]
}

/// Puts the stored body settings into `s` (settings a file does not hold
/// keep theirs).
fn set_body(s: &mut MotorSettings, stored: [f32; 12]) -> Result<(), String> {
    let [
        w,
        h,
        ch,
        eye,
        ceye,
        walk,
        run,
        crouch,
        fly,
        jump,
        gravity,
        terminal,
    ] = stored;
    s.half_width = positive("half_width", w)?;
    s.height = positive("height", h)?;
    s.crouch_height = positive("crouch_height", ch)?;
    s.eye_height = positive("eye_height", eye)?;
    s.crouch_eye_height = positive("crouch_eye_height", ceye)?;
    s.walk_speed = finite("walk_speed", walk)?;
    s.run_speed = finite("run_speed", run)?;
    s.crouch_speed = finite("crouch_speed", crouch)?;
    s.fly_speed = finite("fly_speed", fly)?;
    s.jump_speed = finite("jump_speed", jump)?;
    s.gravity = finite("gravity", gravity)?;
    s.terminal_speed = positive("terminal_speed", terminal)?;
    Ok(())
}

fn swim_from_stored(stored: [f32; 6]) -> Result<SwimSettings, String> {
    let [speed, run_speed, rise_speed, dive_speed, float_depth, drag] = stored;
    Ok(SwimSettings {
        speed: finite("swim speed", speed)?,
        run_speed: finite("swim run_speed", run_speed)?,
        rise_speed: finite("rise_speed", rise_speed)?,
        dive_speed: finite("dive_speed", dive_speed)?,
        float_depth: finite("float_depth", float_depth)?,
        drag: finite("drag", drag)?,
    })
}

impl PlayerControllerDoc {
    pub(super) fn save(c: &PlayerController) -> Result<Self, String> {
        if matches!(c.drive, PlayerDrive::Commands(_)) {
            return Err(
                "a player driven by the game's commands cannot be stored (its source is code)"
                    .to_owned(),
            );
        }
        Ok(Self {
            body: Some(body(&c.motor.settings)),
            swim: Some(swim(&c.motor.swim)),
            ground: ground(&c.motor.settings),
            yaw: Some(c.yaw),
            pitch: Some(c.pitch),
            mouse_sensitivity: Some(c.mouse_sensitivity),
            mouse_look: Some(c.mouse_look),
            can_fly: Some(c.can_fly),
            step_hz: Some(c.step_hz),
            interpolate: Some(c.interpolate),
            pad_look_speed: Some(c.pad_look_speed),
            touch: Some(c.touch.is_some()),
            keys: keys_to_names(player_keys(c.keys), player_keys(PlayerKeys::default())),
        })
    }

    pub(super) fn load(self) -> Result<PlayerController, String> {
        let mut settings = MotorSettings::default();
        if let Some(stored) = self.body {
            set_body(&mut settings, stored)?;
        }
        if let Some([slope, step, snap]) = self.ground {
            settings.max_slope = finite("max_slope", slope)?;
            settings.step_height = finite("step_height", step)?;
            settings.snap_distance = finite("snap_distance", snap)?;
        }
        let mut c = PlayerController::new(settings);
        set(&mut c.motor.swim, self.swim, swim_from_stored)?;
        set(&mut c.yaw, self.yaw, |v| finite("yaw", v))?;
        set(&mut c.pitch, self.pitch, |v| finite("pitch", v))?;
        set(&mut c.mouse_sensitivity, self.mouse_sensitivity, |v| {
            finite("mouse_sensitivity", v)
        })?;
        set(&mut c.mouse_look, self.mouse_look, Ok)?;
        set(&mut c.can_fly, self.can_fly, Ok)?;
        set(&mut c.step_hz, self.step_hz, |v| positive("step_hz", v))?;
        set(&mut c.interpolate, self.interpolate, Ok)?;
        set(&mut c.pad_look_speed, self.pad_look_speed, |v| {
            finite("pad_look_speed", v)
        })?;
        if let Some(touch) = self.touch {
            c.touch = touch.then(|| TouchControls::new(TouchLayout::first_person()));
        }
        let keys = names_to_keys(self.keys, player_keys(c.keys))?;
        for (slot, key) in player_slots(&mut c.keys).into_iter().zip(keys) {
            *slot = key;
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    #[test]
    fn a_rebound_orbit_camera_round_trips_and_bad_values_are_refused() {
        let mut camera = CameraController::orbit(Vec3::new(1.0, 2.0, 3.0), 7.0);
        camera.keys.fast = Key::ControlLeft;
        camera.pan_button = MouseButton::Middle;
        let text = serde_json::to_string(&CameraControllerDoc::save(&camera)).unwrap();
        let doc: CameraControllerDoc = serde_json::from_str(&text).unwrap();
        let back = doc.load().unwrap();
        assert_eq!(back.mode, camera.mode);
        assert_eq!(back.keys, camera.keys);
        assert_eq!(back.pan_button, MouseButton::Middle);
        let again = serde_json::to_string(&CameraControllerDoc::save(&back)).unwrap();
        assert_eq!(again, text);

        let bad = text.replace("\"distance\":7.0", "\"distance\":-1.0");
        let doc: CameraControllerDoc = serde_json::from_str(&bad).unwrap();
        assert!(doc.load().is_err());
        let bad = text.replace("ControlLeft", "Hyper");
        let doc: CameraControllerDoc = serde_json::from_str(&bad).unwrap();
        assert!(doc.load().unwrap_err().contains("Hyper"));
    }

    #[test]
    fn settings_left_out_take_the_builders_values() {
        let stored = |c: &CameraController| serde_json::to_value(CameraControllerDoc::save(c));
        let orbit = CameraController::orbit(Vec3::new(1.0, 2.0, 3.0), 7.0);
        for (text, builder) in [
            (r#"{"mode":"fly"}"#, CameraController::fly()),
            (
                r#"{"mode":{"orbit":{"target":[1.0,2.0,3.0],"distance":7.0}}}"#,
                orbit,
            ),
        ] {
            let doc: CameraControllerDoc = serde_json::from_str(text).unwrap();
            let loaded = doc.load().unwrap();
            assert_eq!(
                stored(&loaded).unwrap(),
                stored(&builder).unwrap(),
                "{text}"
            );
        }
        let doc: CameraControllerDoc =
            serde_json::from_str(r#"{"mode":"fly","fly_speed":3.0}"#).unwrap();
        let loaded = doc.load().unwrap();
        assert_eq!(loaded.fly_speed, 3.0);
        assert_eq!(
            loaded.fast_multiplier,
            CameraController::fly().fast_multiplier
        );

        let doc: PlayerControllerDoc = serde_json::from_str("{}").unwrap();
        let loaded = doc.load().unwrap();
        let builder = PlayerController::default();
        assert_eq!(loaded.motor.settings, builder.motor.settings);
        assert_eq!(loaded.motor.swim, builder.motor.swim);
        let stored = |c: &PlayerController| {
            serde_json::to_value(PlayerControllerDoc::save(c).unwrap()).unwrap()
        };
        assert_eq!(stored(&loaded), stored(&builder));
        let doc: PlayerControllerDoc = serde_json::from_str(r#"{"step_hz":-1.0}"#).unwrap();
        assert!(doc.load().unwrap_err().contains("step_hz"));
    }

    #[test]
    fn a_player_round_trips_and_a_scripted_one_is_refused() {
        let mut player = PlayerController::default();
        player.can_fly = false;
        player.touch = None;
        player.motor.settings.jump_speed = 6.0;
        let text = serde_json::to_string(&PlayerControllerDoc::save(&player).unwrap()).unwrap();
        assert!(!text.contains("keys"), "default keys are left out: {text}");
        let doc: PlayerControllerDoc = serde_json::from_str(&text).unwrap();
        let back = doc.load().unwrap();
        assert!(!back.can_fly && back.touch.is_none());
        assert_eq!(back.motor.settings, player.motor.settings);
        let again = serde_json::to_string(&PlayerControllerDoc::save(&back).unwrap()).unwrap();
        assert_eq!(again, text);

        player.drive = PlayerDrive::commands(|_| crate::controllers::PlayerCommand::default());
        assert!(PlayerControllerDoc::save(&player).is_err());
    }
}
