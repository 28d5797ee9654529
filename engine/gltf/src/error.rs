//! The importer's error type: every variant names the file and the glTF element at fault.

use std::fmt;
use std::path::Path;

/// The kinds of glTF element an error can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ElementKind {
    /// `buffers[i]`.
    Buffer,
    /// `images[i]`.
    Image,
    /// `materials[i]`.
    Material,
    /// `meshes[i]`.
    Mesh,
    /// `nodes[i]`.
    Node,
    /// `cameras[i]`.
    Camera,
    /// `animations[i]`.
    Animation,
    /// `skins[i]`.
    Skin,
}

impl fmt::Display for ElementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Buffer => "buffer",
            Self::Image => "image",
            Self::Material => "material",
            Self::Mesh => "mesh",
            Self::Node => "node",
            Self::Camera => "camera",
            Self::Animation => "animation",
            Self::Skin => "skin",
        })
    }
}

/// `mesh 2 ("Wheel")`: an element's kind, index and, when it has one, its name.
///
/// Used inside [`GltfError`] messages so that a user can find the element in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementName {
    /// What kind of element.
    pub kind: ElementKind,
    /// Its index in the glTF array of that kind.
    pub index: usize,
    /// Its `name`, if the file gives one.
    pub name: Option<String>,
}

impl ElementName {
    pub(crate) fn new(kind: ElementKind, index: usize, name: Option<&str>) -> Self {
        Self {
            kind,
            index,
            name: name.map(str::to_owned),
        }
    }
}

impl fmt::Display for ElementName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.index)?;
        if let Some(name) = &self.name {
            write!(f, " ({name:?})")?;
        }
        Ok(())
    }
}

/// Why loading a glTF file failed.
///
/// Every variant's message starts with the file name given to the loader (`model.gltf: ...`)
/// and names the element at fault, e.g.
/// `model.gltf: mesh 2 ("Wheel") primitive 0: attribute TEXCOORD_1 accessor 7 reads past the end of buffer view 3`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GltfError {
    /// The file itself could not be read.
    #[error("{file}: cannot read the file: {source}")]
    Io {
        /// The file name used in messages.
        file: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file is a folder, FIFO, device or socket.
    #[error("{file}: not a regular file")]
    NotRegularFile {
        /// The file name used in messages.
        file: String,
    },
    /// The file is larger than the decoded-data budget
    /// ([`LoadOptions::max_decoded_bytes`](crate::LoadOptions::max_decoded_bytes)); it is not
    /// read past that.
    #[error(
        "{file}: {size} bytes or more, more than the importer's {limit}-byte decoded-data limit"
    )]
    TooLarge {
        /// The file name used in messages.
        file: String,
        /// Its size, or as far as it was read.
        size: u64,
        /// The budget.
        limit: u64,
    },
    /// The GLB container is malformed (header, chunk lengths, chunk types).
    #[error("{file}: malformed GLB: {problem}")]
    Glb {
        /// The file name used in messages.
        file: String,
        /// What is wrong with the container.
        problem: GlbProblem,
    },
    /// The JSON is malformed or fails the glTF schema checks (indices out of range, bad enums...).
    #[error("{file}: malformed glTF: {source}")]
    Json {
        /// The file name used in messages.
        file: String,
        /// The `gltf` crate's parse or validation error, with the JSON path at fault.
        source: gltf::Error,
    },
    /// `extensionsRequired` lists an extension this importer does not implement.
    #[error("{file}: required extension {extension} is not supported")]
    UnsupportedRequiredExtension {
        /// The file name used in messages.
        file: String,
        /// The extension's name.
        extension: String,
    },
    /// A buffer could not be resolved or is shorter than its `byteLength`.
    #[error("{file}: {buffer}: {problem}")]
    Buffer {
        /// The file name used in messages.
        file: String,
        /// The buffer.
        buffer: ElementName,
        /// What went wrong.
        problem: SourceProblem,
    },
    /// An image could not be resolved or decoded.
    #[error("{file}: {image}: {problem}")]
    Image {
        /// The file name used in messages.
        file: String,
        /// The image.
        image: ElementName,
        /// What went wrong.
        problem: SourceProblem,
    },
    /// An accessor read by a mesh primitive or an animation is invalid.
    #[error("{file}: {element}: {usage} accessor {accessor} {problem}")]
    Accessor {
        /// The file name used in messages.
        file: String,
        /// The element reading it (`mesh 2 ("Wheel") primitive 0` or `animation 0 ("Walk") channel 3`).
        element: String,
        /// How it is used (`attribute TEXCOORD_1`, `indices`, `input`, `output`).
        usage: String,
        /// The accessor's index.
        accessor: usize,
        /// What is wrong.
        problem: AccessorProblem,
    },
    /// A mesh primitive is invalid (beyond its accessors).
    #[error("{file}: {mesh} primitive {primitive}: {problem}")]
    Primitive {
        /// The file name used in messages.
        file: String,
        /// The mesh.
        mesh: ElementName,
        /// The primitive's index in the mesh.
        primitive: usize,
        /// What is wrong.
        problem: PrimitiveProblem,
    },
    /// A node or the node hierarchy is invalid.
    #[error("{file}: {node}: {problem}")]
    Node {
        /// The file name used in messages.
        file: String,
        /// The node.
        node: ElementName,
        /// What is wrong.
        problem: NodeProblem,
    },
    /// A camera lacks the projection object its `type` names.
    #[error("{file}: {camera}: its type names a projection it does not have")]
    Camera {
        /// The file name used in messages.
        file: String,
        /// The camera.
        camera: ElementName,
    },
    /// An animation channel is invalid.
    #[error("{file}: {animation} channel {channel}: {problem}")]
    Animation {
        /// The file name used in messages.
        file: String,
        /// The animation.
        animation: ElementName,
        /// The channel's index in the animation.
        channel: usize,
        /// What is wrong.
        problem: AnimationProblem,
    },
    /// A skin, or its use by a node, is invalid.
    #[error("{file}: {skin}: {problem}")]
    Skin {
        /// The file name used in messages.
        file: String,
        /// The skin.
        skin: ElementName,
        /// What is wrong.
        problem: SkinProblem,
    },
}

/// What is wrong with a GLB container.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GlbProblem {
    /// Fewer than the 12 header bytes.
    #[error("the file is {len} bytes, shorter than the 12-byte header")]
    TooShort {
        /// The file's length.
        len: usize,
    },
    /// The header's version is not 2.
    #[error("version {version} is not supported (only 2)")]
    Version {
        /// The version in the header.
        version: u32,
    },
    /// The header's total length disagrees with the file.
    #[error("the header says {declared} bytes but the file has {actual}")]
    Length {
        /// The length in the header.
        declared: u32,
        /// The file's length.
        actual: usize,
    },
    /// A chunk header or body runs past the end of the file.
    #[error("chunk {chunk} ({declared} bytes at offset {offset}) runs past the end of the file")]
    ChunkOverflow {
        /// The chunk's position (0 = JSON).
        chunk: usize,
        /// Its declared length.
        declared: u32,
        /// Where its body starts.
        offset: usize,
    },
    /// The first chunk is not JSON.
    #[error("the first chunk must be JSON")]
    MissingJson,
    /// A second BIN chunk.
    #[error("more than one BIN chunk")]
    DuplicateBin,
}

/// What went wrong resolving a buffer or an image.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SourceProblem {
    /// A `data:` URI that is not base64 or fails to decode.
    #[error("bad data URI: {reason}")]
    DataUri {
        /// Why it is rejected.
        reason: String,
    },
    /// An external URI that this importer refuses (absolute path, `..`, other scheme, no base
    /// directory).
    #[error("URI {uri:?} is not supported: {reason}")]
    UnsupportedUri {
        /// The URI as written in the file.
        uri: String,
        /// Why it is rejected.
        reason: &'static str,
    },
    /// The external file named by the URI could not be read (or does not exist).
    #[error("cannot read URI {uri:?} ({}): {source}", path.display())]
    File {
        /// The URI as written in the file.
        uri: String,
        /// The resolved path.
        path: Box<Path>,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The URI resolves (following symbolic links) outside the model's folder and every
    /// [`LoadOptions::allowed_roots`](crate::LoadOptions::allowed_roots) folder.
    #[error(
        "URI {uri:?} resolves to {}, outside the model's folder (LoadOptions::allowed_roots can allow more)", path.display()
    )]
    OutsideFolder {
        /// The URI as written in the file.
        uri: String,
        /// Where it resolves to (symbolic links followed).
        path: Box<Path>,
    },
    /// The URI names a folder, FIFO, device or socket.
    #[error("URI {uri:?} names {}, which is not a regular file", path.display())]
    NotRegularFile {
        /// The URI as written in the file.
        uri: String,
        /// Where it resolves to (symbolic links followed).
        path: Box<Path>,
    },
    /// The external file is larger than what is left of the decoded-data budget; it is not
    /// read past that.
    #[error(
        "URI {uri:?} names a file of {size} bytes or more, more than the {remaining} left of the importer's decoded-data limit"
    )]
    FileTooLarge {
        /// The URI as written in the file.
        uri: String,
        /// Its size, or as far as it was read.
        size: u64,
        /// Bytes left in the budget.
        remaining: u64,
    },
    /// A model imported with its files supplied in memory
    /// ([`GltfModel::from_slice_with_files`](crate::GltfModel::from_slice_with_files)) names a
    /// file that was not supplied.
    #[error("URI {uri:?} names {path:?}, which is not among the files supplied in memory")]
    NotSupplied {
        /// The URI as written in the file.
        uri: String,
        /// The percent-decoded path, the key it was looked up by
        /// ([`ExternalUri::path`](crate::ExternalUri::path)).
        path: Box<str>,
    },
    /// A `data:` URI's contents are larger than what is left of the decoded-data budget.
    #[error(
        "the data URI holds {size} bytes, more than the {remaining} left of the importer's decoded-data limit"
    )]
    DataUriTooLarge {
        /// Its decoded size.
        size: u64,
        /// Bytes left in the budget.
        remaining: u64,
    },
    /// A buffer without a URI but no GLB BIN chunk to back it.
    #[error("refers to the GLB binary chunk, but there is none")]
    MissingBin,
    /// The data is shorter than the declared `byteLength`.
    #[error("byteLength is {declared} but only {actual} bytes are available")]
    TooShort {
        /// The declared length.
        declared: usize,
        /// The bytes found.
        actual: usize,
    },
    /// An image's buffer view runs past the end of its buffer.
    #[error("buffer view {view} runs past the end of buffer {buffer}")]
    ViewOutOfRange {
        /// The buffer view.
        view: usize,
        /// The buffer.
        buffer: usize,
    },
    /// Decoding it would pass [`MAX_DECODED_BYTES`](crate::MAX_DECODED_BYTES) for the load.
    #[error(
        "{width}x{height} RGBA8 needs {needed} bytes, more than the {remaining} left of the importer's decoded-data limit"
    )]
    TooLarge {
        /// Width in the image header.
        width: u32,
        /// Height in the image header.
        height: u32,
        /// Bytes it needs.
        needed: u64,
        /// Bytes left in the budget.
        remaining: u64,
    },
    /// An image in a buffer view without the required `mimeType`.
    #[error("is in a buffer view but has no mimeType")]
    MissingMimeType,
    /// An image with neither `uri` nor `bufferView`.
    #[error("has neither a uri nor a bufferView")]
    NoSource,
    /// Not PNG or JPEG.
    #[error("unsupported image type {mime:?} (only image/png and image/jpeg)")]
    UnsupportedImageType {
        /// The MIME type or the detected format.
        mime: String,
    },
    /// The image decoder failed (corrupt data, or larger than the decoder limits).
    #[error("cannot decode: {0}")]
    Decode(Box<image::ImageError>),
}

/// What is wrong with an accessor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AccessorProblem {
    /// It reads past the end of its buffer view.
    #[error(
        "reads past the end of buffer view {view} ({needed} bytes needed, {available} available)"
    )]
    PastViewEnd {
        /// The buffer view.
        view: usize,
        /// Bytes the accessor needs from the view's start.
        needed: u64,
        /// The view's length.
        available: u64,
    },
    /// Its buffer view reads past the end of its buffer.
    #[error(
        "uses buffer view {view}, which reads past the end of buffer {buffer} ({needed} bytes needed, {available} available)"
    )]
    ViewPastBufferEnd {
        /// The buffer view.
        view: usize,
        /// The buffer.
        buffer: usize,
        /// Bytes the view needs.
        needed: u64,
        /// The buffer's length.
        available: u64,
    },
    /// Element type or component type not allowed for this use.
    #[error("has type {found}, expected {expected}")]
    WrongType {
        /// What the accessor holds, e.g. `VEC2 of u8`.
        found: Box<str>,
        /// What is allowed here.
        expected: &'static str,
    },
    /// No buffer view and no sparse data, or too many zero-filled elements.
    #[error("has no buffer view and {count} elements (at most {max} are allowed without data)")]
    TooManyUnbacked {
        /// The accessor's count.
        count: u64,
        /// The limit.
        max: u64,
    },
    /// Reading it would pass [`MAX_DECODED_BYTES`](crate::MAX_DECODED_BYTES) for the load.
    #[error(
        "needs {needed} bytes, more than the {remaining} left of the importer's decoded-data limit"
    )]
    TooLarge {
        /// Bytes this read needs.
        needed: u64,
        /// Bytes left in the budget.
        remaining: u64,
    },
    /// A sparse index is not below the accessor's count.
    #[error("sparse index {index} is out of range (count {count})")]
    SparseIndexOutOfRange {
        /// The bad index.
        index: u32,
        /// The accessor's count.
        count: usize,
    },
    /// A float value is NaN or infinite.
    #[error("element {element} is not finite")]
    NotFinite {
        /// The element's index.
        element: usize,
    },
    /// A vertex index is not below the vertex count.
    #[error("index {value} at position {position} is out of range ({vertex_count} vertices)")]
    IndexOutOfRange {
        /// The bad index.
        value: u32,
        /// Where in the index list.
        position: usize,
        /// The primitive's vertex count.
        vertex_count: usize,
    },
    /// The count disagrees with the other attributes (or the animation input).
    #[error("has {found} elements, expected {expected}")]
    CountMismatch {
        /// The accessor's count.
        found: usize,
        /// The expected count.
        expected: usize,
    },
}

/// What is wrong with a mesh primitive.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PrimitiveProblem {
    /// No POSITION attribute.
    #[error("has no POSITION attribute")]
    MissingPositions,
    /// Triangulating or unwelding it would pass [`MAX_DECODED_BYTES`](crate::MAX_DECODED_BYTES).
    #[error(
        "needs {needed} bytes, more than the {remaining} left of the importer's decoded-data limit"
    )]
    TooLarge {
        /// Bytes it needs.
        needed: u64,
        /// Bytes left in the budget.
        remaining: u64,
    },
    /// An attribute or the indices name an accessor that does not exist.
    #[error("{usage} names accessor {accessor}, but there are only {accessors}")]
    AccessorIndexOutOfRange {
        /// `attribute POSITION`, `indices`...
        usage: Box<str>,
        /// The accessor index in the file.
        accessor: usize,
        /// How many accessors the file has.
        accessors: usize,
    },
    /// Its morph target count differs from the mesh's (its other primitives or its `weights`).
    #[error("has {found} morph targets, but the mesh has {expected}")]
    MorphTargetCount {
        /// Targets of this primitive.
        found: usize,
        /// Targets of the mesh.
        expected: usize,
    },
}

/// What is wrong with a node.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NodeProblem {
    /// Its `matrix` is not finite or not an affine translation * rotation * scale.
    #[error("matrix {matrix:?} cannot be decomposed into translation, rotation and scale")]
    MatrixNotDecomposable {
        /// The matrix, column-major as in the file (boxed to keep errors small).
        matrix: Box<[f32; 16]>,
    },
    /// A translation, rotation or scale value is NaN, infinite, or a zero quaternion.
    #[error("{property} {value:?} is not finite (or is a zero quaternion)")]
    NotFinite {
        /// `"translation"`, `"rotation"` or `"scale"`.
        property: &'static str,
        /// The values.
        value: Vec<f32>,
    },
    /// It is listed as a child of two nodes.
    #[error("is a child of both node {first} and node {second}")]
    TwoParents {
        /// The first parent found.
        first: usize,
        /// The second parent found.
        second: usize,
    },
    /// It is its own ancestor.
    #[error("is part of a cycle in the node hierarchy")]
    Cycle,
    /// A scene lists it as a root but it has a parent.
    #[error("is a root of scene {scene} but is a child of node {parent}")]
    SceneRootHasParent {
        /// The scene.
        scene: usize,
        /// Its parent.
        parent: usize,
    },
}

/// What is wrong with an animation channel.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnimationProblem {
    /// An input time is negative or not finite.
    #[error("input time {time} at key {key} is negative or not finite")]
    BadTime {
        /// The key.
        key: usize,
        /// The time.
        time: f32,
    },
    /// Input times are not strictly increasing.
    #[error("input time {time} at key {key} does not increase (previous {previous})")]
    TimesNotIncreasing {
        /// The key.
        key: usize,
        /// Its time.
        time: f32,
        /// The previous key's time.
        previous: f32,
    },
    /// An output value is not finite.
    #[error("output element {element} is not finite")]
    BadValue {
        /// The element.
        element: usize,
    },
    /// Output count does not match the input count (x3 for CUBICSPLINE).
    #[error("has {outputs} outputs for {inputs} inputs (expected {expected})")]
    CountMismatch {
        /// Input keys.
        inputs: usize,
        /// Output elements.
        outputs: usize,
        /// Expected output elements.
        expected: usize,
    },
    /// The target node does not exist.
    #[error("targets node {node}, but there are only {nodes}")]
    BadTarget {
        /// The node index in the file.
        node: usize,
        /// How many nodes the file has.
        nodes: usize,
    },
    /// The target path is not translation, rotation, scale or weights.
    #[error("has an invalid target path")]
    InvalidPath,
    /// No keyframes at all.
    #[error("has no keyframes")]
    Empty,
    /// A `weights` channel's output count is not keys x morph targets (x3 for CUBICSPLINE).
    #[error(
        "has {outputs} weight outputs for {inputs} keys and {targets} morph targets (expected {expected})"
    )]
    WeightsCountMismatch {
        /// Input keys.
        inputs: usize,
        /// Morph targets of the target node's mesh.
        targets: usize,
        /// Output elements.
        outputs: usize,
        /// Expected output elements.
        expected: usize,
    },
}

/// What is wrong with a skin or its use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SkinProblem {
    /// A joint is not a node of the document.
    #[error("joint {joint} is not a node (there are {nodes})")]
    JointNotANode {
        /// The joint's node index in the file.
        joint: usize,
        /// How many nodes the file has.
        nodes: usize,
    },
    /// The `skeleton` is not a node of the document.
    #[error("skeleton {node} is not a node (there are {nodes})")]
    SkeletonNotANode {
        /// The node index in the file.
        node: usize,
        /// How many nodes the file has.
        nodes: usize,
    },
    /// More joints than a u16 `JOINTS_n` index can name.
    #[error("has {joints} joints, more than the 65536 a JOINTS attribute can index")]
    TooManyJoints {
        /// The joint count.
        joints: usize,
    },
    /// `inverseBindMatrices` has not one matrix per joint.
    #[error("has {matrices} inverse bind matrices for {joints} joints")]
    InverseBindMatrixCount {
        /// Matrices in the accessor.
        matrices: usize,
        /// Joints in the skin.
        joints: usize,
    },
    /// A node draws a primitive whose JOINTS name a joint the skin does not have.
    #[error(
        "node {node} draws primitive {primitive} with joint index {joint}, but the skin has {joints} joints"
    )]
    JointIndexOutOfRange {
        /// The node using the skin.
        node: usize,
        /// The primitive's index in its glTF mesh.
        primitive: usize,
        /// The largest joint index the primitive uses.
        joint: u16,
        /// The skin's joint count.
        joints: usize,
    },
}
