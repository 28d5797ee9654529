//! Typed indices into the arrays of a [`GltfModel`](crate::GltfModel).

macro_rules! typed_index {
    ($(#[$doc:meta] $name:ident => $field:literal;)*) => {$(
        #[$doc]
        #[doc = concat!("\n\nIndexes `GltfModel::", $field, "`; the importer guarantees it is in range.")]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub usize);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{} {}", $field, self.0)
            }
        }
    )*};
}

typed_index! {
    /// A scene.
    SceneIndex => "scenes";
    /// A node.
    NodeIndex => "nodes";
    /// A mesh.
    MeshIndex => "meshes";
    /// A material.
    MaterialIndex => "materials";
    /// A decoded image.
    ImageIndex => "images";
    /// A camera.
    CameraIndex => "cameras";
    /// A KHR_lights_punctual light.
    LightIndex => "lights";
    /// An animation.
    AnimationIndex => "animations";
    /// A skin.
    SkinIndex => "skins";
}
