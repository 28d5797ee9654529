//! The character's body, made in code: a skeleton of joint objects under the
//! character's root and one skinned mesh of coloured boxes, one box per bone.
//!
//! The model faces -Z with its feet at the root's origin. Each box's
//! vertices follow its own bone; where a limb bends (spine, neck, elbows,
//! knees) the faces that meet at the joint are weighted half to each bone,
//! so the bend stretches the boxes instead of tearing them apart.

use glam::{Mat4, Vec3, Vec4};
use taos_engine::prelude::*;
use taos_engine::renderer::deform::DeformableMeshData;
use taos_engine::renderer::resources::{MeshData, Vertex};

/// The character's bones, in the order the skin's joint indices name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bone {
    /// The pelvis: the root of the skeleton.
    Hips,
    /// The lower back.
    Spine,
    /// The ribcage; the arms and the neck hang from it.
    Chest,
    /// The neck.
    Neck,
    /// The head.
    Head,
    /// Left shoulder to elbow.
    UpperArmL,
    /// Left elbow to wrist.
    LowerArmL,
    /// Right shoulder to elbow.
    UpperArmR,
    /// Right elbow to wrist.
    LowerArmR,
    /// Left hip to knee.
    UpperLegL,
    /// Left knee to ankle.
    LowerLegL,
    /// Left foot.
    FootL,
    /// Right hip to knee.
    UpperLegR,
    /// Right knee to ankle.
    LowerLegR,
    /// Right foot.
    FootR,
}

impl Bone {
    /// Every bone, parents before children.
    pub const ALL: [Bone; 15] = [
        Bone::Hips,
        Bone::Spine,
        Bone::Chest,
        Bone::Neck,
        Bone::Head,
        Bone::UpperArmL,
        Bone::LowerArmL,
        Bone::UpperArmR,
        Bone::LowerArmR,
        Bone::UpperLegL,
        Bone::LowerLegL,
        Bone::FootL,
        Bone::UpperLegR,
        Bone::LowerLegR,
        Bone::FootR,
    ];

    /// The joint's index in the skin.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The joint object's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Bone::Hips => "Hips",
            Bone::Spine => "Spine",
            Bone::Chest => "Chest",
            Bone::Neck => "Neck",
            Bone::Head => "Head",
            Bone::UpperArmL => "UpperArm.L",
            Bone::LowerArmL => "LowerArm.L",
            Bone::UpperArmR => "UpperArm.R",
            Bone::LowerArmR => "LowerArm.R",
            Bone::UpperLegL => "UpperLeg.L",
            Bone::LowerLegL => "LowerLeg.L",
            Bone::FootL => "Foot.L",
            Bone::UpperLegR => "UpperLeg.R",
            Bone::LowerLegR => "LowerLeg.R",
            Bone::FootR => "Foot.R",
        }
    }

    /// The parent bone (`None` for the hips, which hang from the root).
    #[must_use]
    pub fn parent(self) -> Option<Bone> {
        Some(match self {
            Bone::Hips => return None,
            Bone::Spine => Bone::Hips,
            Bone::Chest => Bone::Spine,
            Bone::Neck | Bone::UpperArmL | Bone::UpperArmR => Bone::Chest,
            Bone::Head => Bone::Neck,
            Bone::LowerArmL => Bone::UpperArmL,
            Bone::LowerArmR => Bone::UpperArmR,
            Bone::UpperLegL | Bone::UpperLegR => Bone::Hips,
            Bone::LowerLegL => Bone::UpperLegL,
            Bone::LowerLegR => Bone::UpperLegR,
            Bone::FootL => Bone::LowerLegL,
            Bone::FootR => Bone::LowerLegR,
        })
    }

    /// The joint's position in the bind pose, relative to the root (feet at
    /// the origin, facing -Z, +X on the character's right).
    #[must_use]
    pub fn bind_position(self) -> Vec3 {
        match self {
            Bone::Hips => Vec3::new(0.0, 0.95, 0.0),
            Bone::Spine => Vec3::new(0.0, 1.07, 0.0),
            Bone::Chest => Vec3::new(0.0, 1.29, 0.0),
            Bone::Neck => Vec3::new(0.0, 1.52, 0.0),
            Bone::Head => Vec3::new(0.0, 1.60, 0.0),
            Bone::UpperArmL => Vec3::new(-0.27, 1.49, 0.0),
            Bone::LowerArmL => Vec3::new(-0.27, 1.20, 0.0),
            Bone::UpperArmR => Vec3::new(0.27, 1.49, 0.0),
            Bone::LowerArmR => Vec3::new(0.27, 1.20, 0.0),
            Bone::UpperLegL => Vec3::new(-0.1, 0.9, 0.0),
            Bone::LowerLegL => Vec3::new(-0.1, 0.48, 0.0),
            Bone::FootL => Vec3::new(-0.1, 0.07, 0.0),
            Bone::UpperLegR => Vec3::new(0.1, 0.9, 0.0),
            Bone::LowerLegR => Vec3::new(0.1, 0.48, 0.0),
            Bone::FootR => Vec3::new(0.1, 0.07, 0.0),
        }
    }

    /// The joint's position relative to its parent joint (to the root for
    /// the hips): joints are not rotated in the bind pose.
    #[must_use]
    pub fn local_offset(self) -> Vec3 {
        self.bind_position() - self.parent().map_or(Vec3::ZERO, Bone::bind_position)
    }
}

/// The body's colours (linear RGB).
const SKIN: Vec3 = Vec3::new(0.85, 0.6, 0.45);
const SHIRT: Vec3 = Vec3::new(0.75, 0.12, 0.1);
const TROUSERS: Vec3 = Vec3::new(0.1, 0.18, 0.55);
const SHOES: Vec3 = Vec3::new(0.12, 0.08, 0.05);

/// One box of the body: its bind-pose corners, its bone, its colour, and
/// whether its top or bottom face is shared half-and-half with another bone.
struct Segment {
    min: Vec3,
    max: Vec3,
    bone: Bone,
    color: Vec3,
    /// The bone the bottom face (lowest `y`) is blended with.
    bottom: Option<Bone>,
    /// The bone the top face (highest `y`) is blended with.
    top: Option<Bone>,
}

/// A box around the vertical line through `x`, `z` from `y0` to `y1`.
fn column(x: f32, z: f32, y0: f32, y1: f32, half: Vec2) -> (Vec3, Vec3) {
    (
        Vec3::new(x - half.x, y0, z - half.y),
        Vec3::new(x + half.x, y1, z + half.y),
    )
}

fn segments() -> Vec<Segment> {
    let seg = |(min, max): (Vec3, Vec3), bone, color, bottom, top| Segment {
        min,
        max,
        bone,
        color,
        bottom,
        top,
    };
    let mut list = vec![
        seg(
            column(0.0, 0.0, 0.84, 1.07, Vec2::new(0.17, 0.1)),
            Bone::Hips,
            TROUSERS,
            None,
            Some(Bone::Spine),
        ),
        seg(
            column(0.0, 0.0, 1.07, 1.29, Vec2::new(0.16, 0.095)),
            Bone::Spine,
            SHIRT,
            Some(Bone::Hips),
            Some(Bone::Chest),
        ),
        seg(
            column(0.0, 0.0, 1.29, 1.52, Vec2::new(0.21, 0.11)),
            Bone::Chest,
            SHIRT,
            Some(Bone::Spine),
            None,
        ),
        seg(
            column(0.0, 0.0, 1.50, 1.60, Vec2::new(0.05, 0.05)),
            Bone::Neck,
            SKIN,
            None,
            Some(Bone::Head),
        ),
        seg(
            column(0.0, -0.01, 1.60, 1.86, Vec2::new(0.11, 0.12)),
            Bone::Head,
            SKIN,
            Some(Bone::Neck),
            None,
        ),
    ];
    for (side, upper_arm, lower_arm, upper_leg, lower_leg, foot) in [
        (
            -1.0,
            Bone::UpperArmL,
            Bone::LowerArmL,
            Bone::UpperLegL,
            Bone::LowerLegL,
            Bone::FootL,
        ),
        (
            1.0,
            Bone::UpperArmR,
            Bone::LowerArmR,
            Bone::UpperLegR,
            Bone::LowerLegR,
            Bone::FootR,
        ),
    ] {
        let arm_x = 0.27 * side;
        let leg_x = 0.1 * side;
        list.extend([
            seg(
                column(arm_x, 0.0, 1.20, 1.53, Vec2::splat(0.055)),
                upper_arm,
                SHIRT,
                Some(lower_arm),
                None,
            ),
            seg(
                column(arm_x, 0.0, 0.92, 1.20, Vec2::splat(0.045)),
                lower_arm,
                SKIN,
                None,
                Some(upper_arm),
            ),
            seg(
                column(leg_x, 0.0, 0.48, 0.92, Vec2::splat(0.075)),
                upper_leg,
                TROUSERS,
                Some(lower_leg),
                None,
            ),
            seg(
                column(leg_x, 0.0, 0.07, 0.48, Vec2::splat(0.065)),
                lower_leg,
                TROUSERS,
                None,
                Some(upper_leg),
            ),
            seg(
                (
                    Vec3::new(leg_x - 0.065, 0.0, -0.2),
                    Vec3::new(leg_x + 0.065, 0.09, 0.07),
                ),
                foot,
                SHOES,
                None,
                None,
            ),
        ]);
    }
    list
}

/// The body in its bind pose: the mesh (coloured per vertex) and each
/// vertex's joints and weights.
///
/// # Errors
/// Never for this fixed body (the skin lists always match the vertices).
pub fn body_mesh() -> anyhow::Result<DeformableMeshData> {
    let unit = MeshData::cube(1.0);
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    let mut joints = Vec::new();
    let mut weights = Vec::new();
    for segment in segments() {
        let base = vertices.len() as u32;
        let size = segment.max - segment.min;
        let centre = (segment.max + segment.min) * 0.5;
        let own = segment.bone.index() as u16;
        for vertex in unit.vertices() {
            let corner = Vec3::from(vertex.position);
            let position = centre + corner * size;
            let shared = if corner.y < 0.0 {
                segment.bottom
            } else {
                segment.top
            };
            let (j, w) = match shared {
                Some(other) => ([own, other.index() as u16, 0, 0], [0.5, 0.5, 0.0, 0.0]),
                None => ([own, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
            };
            vertices.push(
                Vertex::new(position, Vec3::from(vertex.normal), vertex.uv.into())
                    .with_tangent(vertex.tangent.into())
                    .with_color(Vec4::from((segment.color, 1.0))),
            );
            joints.push(j);
            weights.push(w);
        }
        indices.extend(unit.indices().iter().map(|i| base + i));
    }
    let mesh = MeshData::new(vertices, indices)?;
    Ok(DeformableMeshData::new(mesh).with_skin(joints, weights)?)
}

/// The inverse bind matrices, one per [`Bone`]: each brings the root's space
/// into the joint's, in the bind pose.
#[must_use]
pub fn inverse_bind_matrices() -> Vec<Mat4> {
    Bone::ALL
        .iter()
        .map(|bone| Mat4::from_translation(bone.bind_position()).inverse())
        .collect()
}

/// Spawns the joints under `root` (in [`Bone::ALL`] order), placed in the
/// bind pose.
///
/// # Errors
/// If `root` is not in `scene`.
pub fn spawn_skeleton(scene: &mut Scene, root: GameObject) -> anyhow::Result<Vec<GameObject>> {
    let mut joints: Vec<GameObject> = Vec::with_capacity(Bone::ALL.len());
    for bone in Bone::ALL {
        let parent = bone.parent().map_or(root, |p| joints[p.index()]);
        let joint = scene.spawn_child(parent, bone.name())?;
        scene.object_mut(joint)?.set_position(bone.local_offset());
        joints.push(joint);
    }
    Ok(joints)
}
