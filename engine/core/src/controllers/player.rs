//! [`PlayerController`]: first-person movement as a behaviour.

use bevy_ecs::world::World;
use glam::{Quat, Vec2, Vec3};

use super::{
    BoxWorld, CharacterMotor, CollisionQuery, FollowCamera, MotorSettings, MoveIntent,
    SceneCollision, TouchControls, TouchLayout,
};
use crate::GameObject;
use crate::behaviour::{Behaviour, BehaviourContext, BehaviourResult};
use crate::game_loop::{Input, Key, MouseButton, PadButton};

/// What the player wants this update, in the player's own frame. The
/// controller builds one from the devices, or takes one from the game
/// ([`PlayerDrive::Commands`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PlayerCommand {
    /// Walking direction relative to the view, `x` right and `y` forward.
    /// Length 1 walks at full speed, less walks slower; longer is shortened.
    pub walk: Vec2,
    /// Turn this update in radians: `x` is yaw (positive turns left), `y` is
    /// pitch (positive looks up).
    pub turn: Vec2,
    /// Jump; rise when flying.
    pub jump: bool,
    /// Run.
    pub run: bool,
    /// Crouch; sink when flying.
    pub crouch: bool,
    /// Turn flying on or off (when [`PlayerController::can_fly`]); acts on
    /// every update that sets it, so set it once per press.
    pub toggle_fly: bool,
}

/// A game's source of [`PlayerCommand`]s: called once per update with the
/// ECS world, before the controller steps.
pub type CommandSource = Box<dyn FnMut(&World) -> PlayerCommand + Send + Sync>;

/// Where a [`PlayerController`] gets its [`PlayerCommand`]s.
pub enum PlayerDrive {
    /// Keys, mouse, gamepad and touch, read from the scene's [`Input`] (the
    /// default).
    Devices,
    /// The game's own source, reading the ECS world and returning this
    /// update's command: its action map and recorded actions, a script, an
    /// AI. A closure can keep its own state (a script's position, an AI's
    /// memory) between updates; build it with [`PlayerDrive::commands`].
    Commands(CommandSource),
}

impl PlayerDrive {
    /// [`PlayerDrive::Commands`] from a function or closure.
    ///
    /// ```
    /// use taos_core::controllers::{PlayerCommand, PlayerDrive};
    ///
    /// // Walks forward for 30 updates, then stops: the counter lives in the closure.
    /// let mut updates = 0;
    /// let drive = PlayerDrive::commands(move |_world| {
    ///     updates += 1;
    ///     let forward = if updates <= 30 { 1.0 } else { 0.0 };
    ///     PlayerCommand { walk: glam::Vec2::new(0.0, forward), ..PlayerCommand::default() }
    /// });
    /// # drop(drive);
    /// ```
    pub fn commands(source: impl FnMut(&World) -> PlayerCommand + Send + Sync + 'static) -> Self {
        Self::Commands(Box::new(source))
    }
}

impl std::fmt::Debug for PlayerDrive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Devices => f.write_str("Devices"),
            Self::Commands(_) => f.write_str("Commands(..)"),
        }
    }
}

/// Where a [`PlayerController`] finds the solid world: a function from the
/// ECS world to a [`CollisionQuery`] living in it (`None`: nothing is solid).
pub type CollisionSource = for<'w> fn(&'w World) -> Option<&'w dyn CollisionQuery>;

/// The default [`CollisionSource`]: the scene's [`SceneCollision`] resource.
#[must_use]
pub fn scene_collision(world: &World) -> Option<&dyn CollisionQuery> {
    world
        .get_resource::<SceneCollision>()
        .map(|collision| collision.0.as_ref())
}

/// The keys a [`PlayerController`] reads; rebind by changing a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerKeys {
    /// Walk forward.
    pub forward: Key,
    /// Walk backward.
    pub backward: Key,
    /// Strafe left.
    pub left: Key,
    /// Strafe right.
    pub right: Key,
    /// Jump; rise when flying.
    pub jump: Key,
    /// Run.
    pub run: Key,
    /// Crouch; sink when flying.
    pub crouch: Key,
    /// Turn flying on and off (when [`PlayerController::can_fly`]).
    pub toggle_fly: Key,
}

impl Default for PlayerKeys {
    /// WASD, Space to jump, left Control to run, left Shift to crouch, F to fly.
    fn default() -> Self {
        Self {
            forward: Key::W,
            backward: Key::S,
            left: Key::A,
            right: Key::D,
            jump: Key::Space,
            run: Key::ControlLeft,
            crouch: Key::ShiftLeft,
            toggle_fly: Key::F,
        }
    }
}

/// The gamepad buttons a [`PlayerController`] reads (the left stick walks,
/// the right stick looks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerPad {
    /// Jump; rise when flying.
    pub jump: PadButton,
    /// Run (while held).
    pub run: PadButton,
    /// Crouch; sink when flying.
    pub crouch: PadButton,
    /// Turn flying on and off.
    pub toggle_fly: PadButton,
}

impl Default for PlayerPad {
    /// South jumps, the left stick pressed in runs, East crouches, North flies.
    fn default() -> Self {
        Self {
            jump: PadButton::South,
            run: PadButton::LeftStick,
            crouch: PadButton::East,
            toggle_fly: PadButton::North,
        }
    }
}

/// Most simulation steps one update runs (a long stall is not replayed in full).
const MAX_STEPS_PER_UPDATE: u32 = 32;

/// First-person movement for the object it is attached to (a root object: its
/// position is the player's eye, its rotation the view, so put the
/// [`Camera`](crate::Camera) on the same object).
///
/// Each update it reads the scene's [`Input`]: mouse motion (or the right
/// stick) turns the view, the [`PlayerKeys`] (or the left stick and the
/// [`PlayerPad`] buttons) move. A game with its own action map sets
/// [`drive`](Self::drive) to [`PlayerDrive::Commands`] instead. It steps its
/// [`CharacterMotor`] at a fixed [`step_hz`](Self::step_hz) against its
/// [`collision`](Self::collision) source (by default the scene's
/// [`SceneCollision`]; nothing is solid without one) and places the object
/// between the last two steps, so motion is smooth and the path the same at
/// any frame rate.
///
/// ```
/// use taos_core::controllers::{Aabb, BoxWorld, PlayerController, SceneCollision};
/// use taos_core::prelude::*;
///
/// let mut scene = Scene::new();
/// let floor = Aabb::new(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 10.0));
/// scene.world_mut().insert_resource(SceneCollision(Box::new(BoxWorld(vec![floor]))));
/// let player = scene.spawn("Player");
/// scene.object_mut(player).unwrap().set_position(Vec3::new(0.0, 3.0, 0.0));
/// scene.add_behaviour(player, PlayerController::default()).unwrap();
/// for _ in 0..120 {
///     scene.tick(1.0 / 60.0);
/// }
/// let eye = scene.world_position(player).unwrap();
/// assert!((eye.y - 1.62).abs() < 0.01, "standing on the floor: {eye}");
/// ```
#[derive(Debug)]
pub struct PlayerController {
    /// The body: position, velocity, flying, crouching, size and speeds.
    pub motor: CharacterMotor,
    /// Where commands come from: the devices (default) or the game.
    pub drive: PlayerDrive,
    /// Where the solid world is found (default [`scene_collision`]).
    pub collision: CollisionSource,
    /// The keys it reads.
    pub keys: PlayerKeys,
    /// The gamepad buttons it reads.
    pub pad: PlayerPad,
    /// Radians per second the right stick turns the view at full tilt.
    pub pad_look_speed: f32,
    /// On-screen controls for touch screens ([`TouchLayout::first_person`]:
    /// joystick walks, right half looks, buttons jump, crouch and fly);
    /// `None` turns them off.
    pub touch: Option<TouchControls>,
    /// Heading in radians (0 looks down -Z, positive turns left).
    pub yaw: f32,
    /// Radians above the horizon.
    pub pitch: f32,
    /// Radians of turn per unit of mouse motion.
    pub mouse_sensitivity: f32,
    /// Whether mouse motion turns the view (turn it off while a menu is open).
    pub mouse_look: bool,
    /// Mouse motion turns the view only while this button is held (`None`,
    /// the default: always, as with a locked pointer). A third-person game
    /// with a free cursor sets `Some(MouseButton::Left)`: drag to orbit.
    pub look_button: Option<MouseButton>,
    /// Whether the fly key works.
    pub can_fly: bool,
    /// Simulation steps per second.
    pub step_hz: f32,
    /// Shows the body between its last two steps (on by default): smooth
    /// when frames and steps do not line up, at the cost of showing it one
    /// step late. Turn it off when every update is exactly one step (a
    /// fixed-tick loop at [`step_hz`](Self::step_hz)); then the latest step shows.
    pub interpolate: bool,
    /// Third person ([`PlayerController::third_person`]): the object stands
    /// at the feet facing [`facing`](Self::facing), and this camera orbits
    /// it at [`yaw`](Self::yaw) and [`pitch`](Self::pitch). `None`: first
    /// person (the object is the eye).
    pub third_person: Option<FollowCamera>,
    /// Third person: the body's heading in radians (0 faces -Z), turned
    /// toward the direction of travel.
    pub facing: f32,
    /// Third person: how fast the body turns to its direction of travel
    /// (1/s; higher is snappier).
    pub turn_rate: f32,
    previous_feet: Vec3,
    accumulator: f32,
    placed: bool,
}

impl Default for PlayerController {
    fn default() -> Self {
        Self::new(MotorSettings::default())
    }
}

impl PlayerController {
    /// A controller with `settings`; its feet are placed from the object's
    /// position (taken as the eye) when attached, and, while
    /// [`yaw`](Self::yaw) and [`pitch`](Self::pitch) are still 0, its view
    /// from the object's rotation (roll is dropped).
    #[must_use]
    pub fn new(settings: MotorSettings) -> Self {
        Self {
            motor: CharacterMotor::new(Vec3::ZERO, settings),
            drive: PlayerDrive::Devices,
            collision: scene_collision,
            keys: PlayerKeys::default(),
            pad: PlayerPad::default(),
            pad_look_speed: 2.5,
            touch: Some(TouchControls::new(TouchLayout::first_person())),
            yaw: 0.0,
            pitch: 0.0,
            mouse_sensitivity: 0.0025,
            mouse_look: true,
            look_button: None,
            can_fly: true,
            step_hz: 120.0,
            interpolate: true,
            third_person: None,
            facing: 0.0,
            turn_rate: 12.0,
            previous_feet: Vec3::ZERO,
            accumulator: 0.0,
            placed: false,
        }
    }

    /// A third-person controller: the object it is attached to is the
    /// character (placed at its feet, turned to face where it walks) and
    /// `camera` is placed by a [`FollowCamera`] orbiting it with the mouse,
    /// the right stick or touch, pulled in at walls. Walking is relative to
    /// the camera's heading; flying is off.
    ///
    /// ```
    /// use taos_core::controllers::{Aabb, BoxWorld, PlayerController, SceneCollision};
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let floor = Aabb::new(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 10.0));
    /// scene.world_mut().insert_resource(SceneCollision(Box::new(BoxWorld(vec![floor]))));
    /// let camera = scene.spawn("Camera");
    /// let hero = scene.spawn("Hero");
    /// scene.add_behaviour(hero, PlayerController::third_person(Default::default(), camera)).unwrap();
    /// for _ in 0..60 {
    ///     scene.tick(1.0 / 60.0);
    /// }
    /// let feet = scene.world_position(hero).unwrap();
    /// assert!(feet.y.abs() < 0.01, "the body stands on its feet: {feet}");
    /// let eye = scene.world_position(camera).unwrap();
    /// assert!(eye.z > 3.0, "the camera is behind it: {eye}");
    /// ```
    #[must_use]
    pub fn third_person(settings: MotorSettings, camera: GameObject) -> Self {
        let mut controller = Self::new(settings);
        controller.third_person = Some(FollowCamera::new(camera));
        controller.can_fly = false;
        controller.pitch = -0.3;
        controller
    }

    /// Third person: the character's walking direction (unit, horizontal;
    /// zero when standing), as the player asks for it.
    #[must_use]
    pub fn move_direction(&self) -> Vec3 {
        self.motor.intended_velocity().normalize_or_zero()
    }

    /// The view direction (unit length).
    #[must_use]
    pub fn look_direction(&self) -> Vec3 {
        self.view_rotation() * Vec3::NEG_Z
    }

    /// The view rotation: yaw about +Y, then pitch.
    #[must_use]
    pub fn view_rotation(&self) -> Quat {
        super::view_rotation(self.yaw, self.pitch)
    }

    /// Turns the view by radians (non-finite input is ignored).
    pub fn look(&mut self, yaw: f32, pitch: f32) {
        (self.yaw, self.pitch) = super::turned(self.yaw, self.pitch, Vec2::new(yaw, pitch));
    }

    /// Moves the player to stand with its feet at `feet`, at rest, with no
    /// interpolation from where it was. Before the controller is attached,
    /// this is where it starts (instead of under the object's position).
    pub fn teleport(&mut self, feet: Vec3) {
        if feet.is_finite() {
            self.motor.position = feet;
            self.motor.velocity = Vec3::ZERO;
            self.previous_feet = feet;
            self.accumulator = 0.0;
            self.placed = true;
        }
    }

    /// This update's command from keys, mouse, gamepad and touch.
    fn device_command(&mut self, input: &Input, dt: f32) -> PlayerCommand {
        let touch = self
            .touch
            .as_mut()
            .map(|controls| controls.update(input).clone())
            .unwrap_or_default();
        let mut turn = Vec2::ZERO;
        if self.mouse_look {
            let dragging = self
                .look_button
                .is_none_or(|button| input.mouse_down_in_tick(button));
            let mouse = if dragging {
                input.mouse_motion()
            } else {
                Vec2::ZERO
            };
            turn -= (mouse + touch.look) * self.mouse_sensitivity;
            if dt.is_finite() && dt > 0.0 {
                turn += super::pad_look(input, self.pad_look_speed, dt);
            }
        }
        let held = |key, button| input.down_in_tick(key) || input.pad_down_in_tick(button);
        let keys = Vec2::new(
            input.key_axis(self.keys.right, self.keys.left),
            input.key_axis(self.keys.forward, self.keys.backward),
        );
        // Keys walk at full speed; a stick part way walks part speed.
        let walk = keys.normalize_or_zero() + input.left_stick() + touch.stick;
        PlayerCommand {
            walk,
            turn,
            jump: held(self.keys.jump, self.pad.jump) || touch.held(0),
            run: held(self.keys.run, self.pad.run),
            crouch: held(self.keys.crouch, self.pad.crouch) || touch.held(1),
            toggle_fly: input.just_pressed(self.keys.toggle_fly)
                || input.pad_just_pressed(self.pad.toggle_fly)
                || touch.just_pressed(2),
        }
    }

    /// The motor's intent for `command`, walking relative to the current yaw.
    fn intent(&self, command: &PlayerCommand) -> MoveIntent {
        let (sin, cos) = self.yaw.sin_cos();
        let ahead = Vec3::new(-sin, 0.0, -cos);
        let right = Vec3::new(cos, 0.0, -sin);
        let walk = if command.walk.is_finite() {
            command.walk.clamp_length_max(1.0)
        } else {
            Vec2::ZERO
        };
        MoveIntent {
            wish: ahead * walk.y + right * walk.x,
            jump: command.jump,
            run: command.run,
            crouch: command.crouch,
        }
    }

    /// Turns, toggles flying, then runs the motor steps `dt` seconds owe.
    fn apply(&mut self, command: &PlayerCommand, world: &dyn CollisionQuery, dt: f32) {
        self.look(command.turn.x, command.turn.y);
        if command.toggle_fly && self.can_fly {
            self.motor.flying = !self.motor.flying;
            self.motor.velocity = Vec3::ZERO;
        }
        if !self.can_fly {
            self.motor.flying = false;
        }
        // After the turn, so this update's steps go where the player now faces.
        let intent = self.intent(command);
        let step = 1.0 / self.step_hz.clamp(1.0, 10_000.0);
        if dt.is_finite() && dt > 0.0 {
            self.accumulator += dt;
        }
        let mut steps = 0;
        while self.accumulator >= step && steps < MAX_STEPS_PER_UPDATE {
            self.previous_feet = self.motor.position;
            self.motor.step(world, intent, step);
            self.accumulator -= step;
            steps += 1;
        }
        if steps == MAX_STEPS_PER_UPDATE {
            self.accumulator = self.accumulator.min(step);
        }
        self.turn_body(dt);
    }

    /// Third person: turns the body toward its direction of travel.
    fn turn_body(&mut self, dt: f32) {
        let wish = self.motor.intended_velocity();
        if self.third_person.is_none() || wish.length() < 0.2 || !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let target = (-wish.x).atan2(-wish.z);
        let pi = std::f32::consts::PI;
        let difference = (target - self.facing + pi).rem_euclid(std::f32::consts::TAU) - pi;
        let share = 1.0 - (-self.turn_rate.max(0.0) * dt).exp();
        self.facing = (self.facing + difference * share).rem_euclid(std::f32::consts::TAU);
    }

    /// Puts the object at the (interpolated) eye, facing the view; in third
    /// person at the feet facing [`facing`](Self::facing), and the camera
    /// where its [`FollowCamera`] says (`dt` after the last placement).
    fn place(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) {
        if self.third_person.is_some() {
            self.place_third_person(cx, dt);
            return;
        }
        let eye = self.interpolated_feet() + Vec3::Y * self.motor.eye_height();
        let rotation = self.view_rotation();
        let transform = cx.transform();
        if transform.position != eye || transform.rotation != rotation {
            let mut transform = cx.transform_mut();
            transform.position = eye;
            transform.rotation = rotation;
        }
    }

    /// Third person: the body at its feet, the camera orbiting it.
    fn place_third_person(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) {
        let feet = self.interpolated_feet();
        let facing = Quat::from_rotation_y(self.facing);
        let transform = cx.transform();
        if transform.position != feet || transform.rotation != facing {
            let mut transform = cx.transform_mut();
            transform.position = feet;
            transform.rotation = facing;
        }
        let rotation = self.view_rotation();
        let me = cx.object();
        let Some(follow) = self.third_person.as_mut() else {
            return;
        };
        let view = {
            let empty = BoxWorld::default();
            let world = (self.collision)(cx.world()).unwrap_or(&empty);
            follow.place(world, feet, rotation, Some(me), dt)
        };
        if let Some(mut transform) = cx
            .world_mut()
            .get_mut::<crate::Transform>(follow.camera.entity())
            && (transform.position != view.position || transform.rotation != view.rotation)
        {
            transform.position = view.position;
            transform.rotation = view.rotation;
        }
    }

    /// The feet position to show: between the last two steps (the latest
    /// when [`interpolate`](Self::interpolate) is off).
    #[must_use]
    pub fn interpolated_feet(&self) -> Vec3 {
        if !self.interpolate {
            return self.motor.position;
        }
        let alpha = (self.accumulator * self.step_hz).clamp(0.0, 1.0);
        self.previous_feet.lerp(self.motor.position, alpha)
    }
}

impl Behaviour for PlayerController {
    fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        if super::unaimed(self.yaw, self.pitch) {
            (self.yaw, self.pitch) = super::look_angles(cx.transform().rotation);
        }
        if !self.placed {
            let at = cx.transform().position;
            let feet = if self.third_person.is_some() {
                at
            } else {
                at - Vec3::Y * self.motor.eye_height()
            };
            self.teleport(feet);
            self.placed = true;
        }
        self.place(cx, 0.0);
        Ok(())
    }

    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let command = match &mut self.drive {
            PlayerDrive::Devices => self.device_command(cx.resource::<Input>(), dt),
            PlayerDrive::Commands(source) => source(cx.world()),
        };
        self.motor.object = Some(cx.object());
        let empty = BoxWorld::default();
        let world = (self.collision)(cx.world()).unwrap_or(&empty);
        self.apply(&command, world, dt);
        if let Some(follow) = self.third_person.as_mut() {
            follow.zoom(cx.resource::<Input>().wheel());
        }
        self.place(cx, dt);
        Ok(())
    }

    /// Places the object again, so a turn made between updates (a window's
    /// mouse look) shows in this frame.
    fn update_render(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.place(cx, 0.0);
        Ok(())
    }

    fn name(&self) -> &'static str {
        "PlayerController"
    }
}
