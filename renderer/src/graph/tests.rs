//! CPU-only tests of the graph compiler.

use wgpu::{BufferUsages as BU, Color, LoadOp, TextureFormat as TF, TextureUsages as TU};

use super::*;

const CLEAR: LoadOp<Color> = LoadOp::Clear(Color::BLACK);

fn target_usage() -> TU {
    TU::RENDER_ATTACHMENT | TU::TEXTURE_BINDING
}

fn rt(format: TF) -> TextureDesc {
    TextureDesc::new_2d(64, 64, format, target_usage())
}

fn surface(graph: &mut RenderGraph<'_>) -> TextureHandle {
    graph.import_texture("surface", ImportedTexture::declared(rt(TF::Bgra8Unorm)))
}

fn names(graph: &RenderGraph<'_>, ids: &[PassId]) -> Vec<&'static str> {
    ids.iter().map(|&p| graph.pass_name(p)).collect()
}

fn compile(graph: &RenderGraph<'_>) -> Result<CompiledGraph, CompileError> {
    let mut c = GraphCompiler::new();
    c.compile(graph)?;
    Ok(c.into_compiled())
}

#[test]
fn read_of_unwritten_transient_is_an_error_naming_pass_and_resource() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let ao = g.create_texture("ao", rt(TF::R8Unorm));
    g.add_render_pass("lighting", |p| {
        p.read_texture(ao);
        let _ = p.write_color(out, LoadOp::Load);
    });
    let err = compile(&g).unwrap_err();
    assert_eq!(
        err,
        CompileError::ReadBeforeWrite {
            pass: "lighting",
            resource: "ao",
            version: 0
        }
    );
    let msg = err.to_string();
    assert!(msg.contains("`lighting`") && msg.contains("`ao`"), "{msg}");
}

#[test]
fn loading_an_unwritten_transient_target_is_a_read_before_write() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let hdr = g.create_texture("hdr", rt(TF::Rgba16Float));
    g.add_render_pass("forward", |p| {
        let _ = p.write_color(hdr, LoadOp::Load);
        let _ = p.write_color(out, CLEAR);
    });
    assert!(matches!(
        compile(&g),
        Err(CompileError::ReadBeforeWrite {
            pass: "forward",
            resource: "hdr",
            ..
        })
    ));
}

#[test]
fn imported_resources_may_be_read_as_they_come() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let history = g.import_texture(
        "taa history",
        ImportedTexture::declared(rt(TF::Rgba16Float)),
    );
    g.add_render_pass("taa", |p| {
        p.read_texture(history);
        let _ = p.write_color(out, CLEAR);
    });
    assert!(compile(&g).is_ok());
}

#[test]
fn an_update_in_place_depends_on_the_previous_writer() {
    let mut g = RenderGraph::new();
    let state = g.import_buffer(
        "particles",
        ImportedBuffer::declared(BufferDesc::new(1024, BU::STORAGE)),
    );
    let scratch = g.create_buffer("forces", BufferDesc::new(1024, BU::STORAGE));
    let forces = g.add_compute_pass("forces", |p| p.write_buffer(scratch, BU::STORAGE));
    let forces2 = g.add_compute_pass("add wind", |p| {
        p.read_buffer(forces, BU::STORAGE);
        p.write_buffer(forces, BU::STORAGE)
    });
    g.add_compute_pass("integrate", |p| {
        p.read_buffer(forces2, BU::STORAGE);
        p.read_buffer(state, BU::STORAGE);
        let _ = p.write_buffer(state, BU::STORAGE);
    });
    let c = compile(&g).unwrap();
    assert_eq!(names(&g, c.order()), ["forces", "add wind", "integrate"]);
    assert_eq!(c.physical_count(), 1);
}

#[test]
fn two_writes_of_one_version_conflict() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let hdr = g.create_texture("hdr", rt(TF::Rgba16Float));
    let _a = g.add_render_pass("sky", |p| p.write_color(hdr, CLEAR));
    let b = g.add_render_pass("forward", |p| p.write_color(hdr, CLEAR));
    g.add_render_pass("tonemap", |p| {
        p.read_texture(b);
        let _ = p.write_color(out, CLEAR);
    });
    let err = compile(&g).unwrap_err();
    assert_eq!(
        err,
        CompileError::WriteConflict {
            resource: "hdr",
            version: 0,
            first: "sky",
            second: "forward"
        }
    );
    let msg = err.to_string();
    assert!(msg.contains("`sky`") && msg.contains("`forward`") && msg.contains("`hdr`"));
}

#[test]
fn a_pass_reading_its_own_output_is_a_cycle() {
    let mut g = RenderGraph::new();
    let counts = g.import_buffer(
        "counts",
        ImportedBuffer::declared(BufferDesc::new(64, BU::STORAGE)),
    );
    g.add_compute_pass("feedback", |p| {
        let next = p.write_buffer(counts, BU::STORAGE);
        p.read_buffer(next, BU::STORAGE);
    });
    let err = compile(&g).unwrap_err();
    assert_eq!(
        err,
        CompileError::Cycle {
            edges: vec![CycleEdge {
                from: "feedback",
                to: "feedback",
                resource: "counts"
            }]
        }
    );
    assert_eq!(
        err.to_string(),
        "the passes form a cycle: `feedback` -(counts)-> `feedback`"
    );
}

#[test]
fn reading_a_version_overwritten_by_a_dependency_is_a_cycle() {
    // `blur` needs `mask v1` from `prepass`, but also the old `color v0`,
    // which `prepass` wrote over: `blur` would have to run both before and
    // after `prepass`.
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let color = g.import_texture("color", ImportedTexture::declared(rt(TF::Rgba8Unorm)));
    let mask = g.create_texture("mask", rt(TF::R8Unorm));
    let mask1 = g.add_render_pass("prepass", |p| {
        let _ = p.write_color(color, LoadOp::Load);
        p.write_color(mask, CLEAR)
    });
    g.add_render_pass("blur", |p| {
        p.read_texture(mask1);
        p.read_texture(color);
        let _ = p.write_color(out, CLEAR);
    });
    let err = compile(&g).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the passes form a cycle: `prepass` -(mask)-> `blur` -(color)-> `prepass`"
    );
    match err {
        CompileError::Cycle { edges } => {
            assert_eq!(edges.len(), 2, "{edges:?}");
            let mut passes: Vec<_> = edges.iter().map(|e| e.from).collect();
            passes.sort_unstable();
            assert_eq!(passes, ["blur", "prepass"]);
            assert_eq!(edges[0].to, edges[1].from);
            assert_eq!(edges[1].to, edges[0].from);
            let mut res: Vec<_> = edges.iter().map(|e| e.resource).collect();
            res.sort_unstable();
            assert_eq!(res, ["color", "mask"]);
        }
        other => panic!("expected a cycle, got {other:?}"),
    }
}

#[test]
fn handles_from_another_graph_are_refused() {
    let mut old = RenderGraph::new();
    let stale = old.create_texture("hdr", rt(TF::Rgba16Float));
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    g.add_render_pass("tonemap", |p| {
        p.read_texture(stale);
        let _ = p.write_color(out, CLEAR);
    });
    let err = compile(&g).unwrap_err();
    assert_eq!(
        err,
        CompileError::ForeignHandle {
            pass: "tonemap",
            handle_graph: old.id().0,
            graph: g.id().0
        }
    );
    assert_eq!(g.label(stale), None);
}

#[test]
fn missing_usage_flags_are_named() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let only_sampled = g.create_texture(
        "lut",
        TextureDesc::new_2d(16, 16, TF::Rgba8Unorm, TU::TEXTURE_BINDING),
    );
    g.add_render_pass("bake", |p| {
        let _ = p.write_color(only_sampled, CLEAR);
        let _ = p.write_color(out, CLEAR);
    });
    assert_eq!(
        compile(&g).unwrap_err(),
        CompileError::MissingTextureUsage {
            pass: "bake",
            resource: "lut",
            needed: TU::RENDER_ATTACHMENT
        }
    );

    let mut g = RenderGraph::new();
    let readback = g.import_buffer(
        "readback",
        ImportedBuffer::declared(BufferDesc::new(256, BU::MAP_READ | BU::COPY_DST)),
    );
    g.add_compute_pass("count", |p| {
        let _ = p.write_buffer(readback, BU::STORAGE);
    });
    assert_eq!(
        compile(&g).unwrap_err(),
        CompileError::MissingBufferUsage {
            pass: "count",
            resource: "readback",
            needed: BU::STORAGE
        }
    );
}

#[test]
fn reading_a_texture_while_rendering_to_it_is_refused() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    g.add_render_pass("blend", |p| {
        p.read_texture(out);
        let _ = p.write_color(out, LoadOp::Load);
    });
    assert_eq!(
        compile(&g).unwrap_err(),
        CompileError::ReadsOwnTarget {
            pass: "blend",
            resource: "surface"
        }
    );
    // A read-only depth target next to a sampled depth is fine, and so is
    // a compute pass updating a texture in place.
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let depth = g.create_texture("depth", rt(TF::Depth32Float));
    let depth = g.add_render_pass("prepass", |p| p.write_depth(depth, LoadOp::Clear(1.0)));
    g.add_render_pass("fog", |p| {
        p.read_texture(depth);
        p.read_depth(depth);
        let _ = p.write_color(out, CLEAR);
    });
    let storage = TU::STORAGE_BINDING | TU::TEXTURE_BINDING;
    let img = g.import_texture(
        "image",
        ImportedTexture::declared(TextureDesc::new_2d(8, 8, TF::Rgba8Unorm, storage)),
    );
    g.add_compute_pass("sharpen", |p| {
        p.read_texture(img);
        let _ = p.write_texture(img, TU::STORAGE_BINDING);
    });
    let c = compile(&g).unwrap();
    assert_eq!(names(&g, c.order()), ["prepass", "fog", "sharpen"]);
}

#[test]
fn two_depth_attachments_and_too_many_colour_targets_are_refused() {
    let mut g = RenderGraph::new();
    let d1 = g.create_texture("depth", rt(TF::Depth32Float));
    let d2 = g.create_texture("shadow", rt(TF::Depth32Float));
    g.add_render_pass("forward", |p| {
        let _ = p.write_depth(d1, LoadOp::Clear(1.0));
        p.read_depth(d2);
    });
    assert_eq!(
        compile(&g).unwrap_err(),
        CompileError::SecondDepthAttachment {
            pass: "forward",
            resource: "shadow"
        }
    );

    let mut g = RenderGraph::new();
    let targets: Vec<_> = (0..=MAX_COLOR_TARGETS)
        .map(|_| g.create_texture("gbuffer", rt(TF::Rgba8Unorm)))
        .collect();
    g.add_render_pass("geometry", |p| {
        for &t in &targets {
            let _ = p.write_color(t, CLEAR);
        }
    });
    assert!(matches!(
        compile(&g),
        Err(CompileError::TooManyColorTargets {
            pass: "geometry",
            max: 8,
            ..
        })
    ));
}

#[test]
fn passes_reaching_no_import_are_culled_with_their_private_producers() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let hdr = g.create_texture("hdr", rt(TF::Rgba16Float));
    let dbg_src = g.create_texture("debug source", rt(TF::Rgba8Unorm));
    let dbg = g.create_texture("debug view", rt(TF::Rgba8Unorm));
    let hdr = g.add_render_pass("forward", |p| p.write_color(hdr, CLEAR));
    let dbg_src = g.add_render_pass("debug source", |p| p.write_color(dbg_src, CLEAR));
    g.add_render_pass("debug view", |p| {
        p.read_texture(dbg_src);
        p.read_texture(hdr); // reads a live resource, still culled
        let _ = p.write_color(dbg, CLEAR);
    });
    g.add_render_pass("tonemap", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(out, CLEAR);
    });
    let c = compile(&g).unwrap();
    assert_eq!(names(&g, c.order()), ["forward", "tonemap"]);
    assert_eq!(names(&g, c.culled()), ["debug source", "debug view"]);
    assert!(c.is_culled(PassId(1)) && !c.is_culled(PassId(0)));
    // Culled-only transients get no memory.
    assert_eq!(c.physical(dbg), None);
    assert_eq!(c.lifetime(dbg_src), None);
    assert_eq!(c.physical_count(), 1);
}

#[test]
fn a_kept_pass_survives_without_imported_outputs() {
    let mut g = RenderGraph::new();
    let counts = g.create_buffer("counts", BufferDesc::new(64, BU::STORAGE));
    g.add_compute_pass("stats", |p| {
        p.keep();
        let _ = p.write_buffer(counts, BU::STORAGE);
    });
    g.add_compute_pass("unused", |_| {});
    let c = compile(&g).unwrap();
    assert_eq!(names(&g, c.order()), ["stats"]);
}

#[test]
fn an_overwritten_producer_is_culled() {
    // `early` writes hdr v1, but `forward` clears over it without reading.
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let hdr = g.create_texture("hdr", rt(TF::Rgba16Float));
    let hdr = g.add_render_pass("early", |p| p.write_color(hdr, CLEAR));
    let hdr = g.add_render_pass("forward", |p| p.write_color(hdr, CLEAR));
    g.add_render_pass("tonemap", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(out, CLEAR);
    });
    let c = compile(&g).unwrap();
    assert_eq!(names(&g, c.order()), ["forward", "tonemap"]);
    assert_eq!(names(&g, c.culled()), ["early"]);
}

#[test]
fn order_respects_dependencies_and_is_otherwise_registration_order() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let color = g.import_texture("color", ImportedTexture::declared(rt(TF::Rgba8Unorm)));
    let a = g.create_texture("a", rt(TF::Rgba8Unorm));
    let b = g.create_texture("b", rt(TF::Rgba8Unorm));
    // `reads color` reads color v0 but is registered after `overwrite`
    // writes color v1: it must move before `overwrite` (write after read).
    let color1 = g.add_render_pass("overwrite", |p| p.write_color(color, LoadOp::Load));
    let a = g.add_render_pass("make a", |p| p.write_color(a, CLEAR));
    let b = g.add_render_pass("reads color", |p| {
        p.read_texture(color);
        p.write_color(b, CLEAR)
    });
    g.add_render_pass("combine", |p| {
        p.read_texture(a);
        p.read_texture(b);
        p.read_texture(color1);
        let _ = p.write_color(out, CLEAR);
    });
    let c = compile(&g).unwrap();
    assert_eq!(
        names(&g, c.order()),
        ["make a", "reads color", "overwrite", "combine"]
    );
    // Stable: recompiling gives the same order.
    assert_eq!(compile(&g).unwrap().order(), c.order());
}

#[test]
fn independent_passes_keep_registration_order() {
    let mut g = RenderGraph::new();
    let outs: Vec<_> = ["o0", "o1", "o2", "o3"]
        .into_iter()
        .map(|l| g.import_texture(l, ImportedTexture::declared(rt(TF::Rgba8Unorm))))
        .collect();
    for (i, &o) in outs.iter().enumerate().rev() {
        let name = ["p0", "p1", "p2", "p3"][i];
        g.add_render_pass(name, |p| {
            let _ = p.write_color(o, CLEAR);
        });
    }
    let c = compile(&g).unwrap();
    assert_eq!(names(&g, c.order()), ["p3", "p2", "p1", "p0"]);
}

/// forward(a) → blur(a → b) → tonemap(b → surface): `a` ends where `b`
/// begins, so they overlap; `c`, written after `a`'s last use, can reuse it.
#[test]
fn transients_with_disjoint_lifetimes_share_memory() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let desc = rt(TF::Rgba16Float);
    let a = g.create_texture("a", desc);
    let b = g.create_texture("b", desc);
    let c = g.create_texture("c", desc);
    let other = g.create_texture("other format", rt(TF::Rgba8Unorm));
    let a = g.add_render_pass("forward", |p| p.write_color(a, CLEAR));
    let b = g.add_render_pass("blur h", |p| {
        p.read_texture(a);
        p.write_color(b, CLEAR)
    });
    let c = g.add_render_pass("blur v", |p| {
        p.read_texture(b);
        p.write_color(c, CLEAR)
    });
    let other = g.add_render_pass("grade", |p| {
        p.read_texture(c);
        p.write_color(other, CLEAR)
    });
    g.add_render_pass("tonemap", |p| {
        p.read_texture(other);
        let _ = p.write_color(out, CLEAR);
    });
    let compiled = compile(&g).unwrap();
    assert_eq!(compiled.lifetime(a), Some(Lifetime { first: 0, last: 1 }));
    assert_eq!(compiled.lifetime(b), Some(Lifetime { first: 1, last: 2 }));
    assert_eq!(compiled.lifetime(c), Some(Lifetime { first: 2, last: 3 }));
    assert_eq!(compiled.lifetime(out), Some(Lifetime { first: 4, last: 4 }));
    // a and c share; b overlaps both; another format never shares.
    assert_eq!(compiled.physical(a), compiled.physical(c));
    assert_ne!(compiled.physical(a), compiled.physical(b));
    assert_ne!(compiled.physical(other), compiled.physical(a));
    assert_ne!(compiled.physical(other), compiled.physical(b));
    assert_eq!(compiled.physical(out), None, "imports are not pooled");
    assert_eq!(compiled.physical_count(), 3);
    let big = desc.byte_size();
    assert_eq!(big, 64 * 64 * 8);
    let small = rt(TF::Rgba8Unorm).byte_size();
    assert_eq!(compiled.transient_bytes(), 3 * big + small);
    assert_eq!(compiled.allocated_bytes(), 2 * big + small);
    assert_eq!(compiled.bytes_saved(), big);
}

#[test]
fn equal_formats_of_different_sizes_never_share() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let full = g.create_texture("full", rt(TF::Rgba8Unorm));
    let half = g.create_texture(
        "half",
        TextureDesc::new_2d(32, 32, TF::Rgba8Unorm, target_usage()),
    );
    let full = g.add_render_pass("one", |p| p.write_color(full, CLEAR));
    let x = g.add_render_pass("two", |p| {
        p.read_texture(full);
        let _ = p.write_color(out, CLEAR);
        p.write_color(half, CLEAR)
    });
    g.add_render_pass("three", |p| {
        p.read_texture(x);
        let _ = p.write_color(out, CLEAR);
    });
    // `out` is written twice from v0: a conflict, so rebuild correctly.
    assert!(matches!(
        compile(&g),
        Err(CompileError::WriteConflict {
            resource: "surface",
            ..
        })
    ));
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let full = g.create_texture("full", rt(TF::Rgba8Unorm));
    let half = g.create_texture(
        "half",
        TextureDesc::new_2d(32, 32, TF::Rgba8Unorm, target_usage()),
    );
    let full = g.add_render_pass("one", |p| p.write_color(full, CLEAR));
    let half = g.add_render_pass("two", |p| {
        p.read_texture(full);
        p.write_color(half, CLEAR)
    });
    g.add_render_pass("three", |p| {
        p.read_texture(half);
        let _ = p.write_color(out, CLEAR);
    });
    let c = compile(&g).unwrap();
    assert_ne!(c.physical(full), c.physical(half));
    assert_eq!(c.bytes_saved(), 0);
}

#[test]
fn transients_used_by_one_pass_alias_down_a_long_chain() {
    // Ping-pong: 10 passes each read the previous target and write a new
    // one; two physical textures are enough.
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let desc = rt(TF::Rgba16Float);
    let first = g.create_texture("t0", desc);
    let mut prev = g.add_render_pass("p0", |p| p.write_color(first, CLEAR));
    for _ in 1..10 {
        let t = g.create_texture("t", desc);
        prev = g.add_render_pass("p", |p| {
            p.read_texture(prev);
            p.write_color(t, CLEAR)
        });
    }
    g.add_render_pass("present", |p| {
        p.read_texture(prev);
        let _ = p.write_color(out, CLEAR);
    });
    let c = compile(&g).unwrap();
    assert_eq!(c.physical_count(), 2);
    assert_eq!(c.bytes_saved(), 8 * desc.byte_size());
}

#[test]
fn gbuffer_with_several_colour_targets_and_depth() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let albedo = g.create_texture("albedo", rt(TF::Rgba8UnormSrgb));
    let normal = g.create_texture("normal", rt(TF::Rgba16Float));
    let material = g.create_texture("material", rt(TF::Rgba8Unorm));
    let depth = g.create_texture("depth", rt(TF::Depth32Float));
    let hdr = g.create_texture("hdr", rt(TF::Rgba16Float));
    let (albedo, normal, material, depth) = g.add_render_pass("gbuffer", |p| {
        (
            p.write_color(albedo, CLEAR),
            p.write_color(normal, CLEAR),
            p.write_color(material, CLEAR),
            p.write_depth(depth, LoadOp::Clear(1.0)),
        )
    });
    let hdr = g.add_render_pass("lighting", |p| {
        for t in [albedo, normal, material, depth] {
            p.read_texture(t);
        }
        p.write_color(hdr, CLEAR)
    });
    let hdr = g.add_render_pass("sky", |p| {
        p.read_depth(depth);
        p.write_color(hdr, LoadOp::Load)
    });
    g.add_render_pass("tonemap", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(out, CLEAR);
    });
    assert_eq!(g.pass_kind(PassId(0)), PassKind::Render);
    let c = compile(&g).unwrap();
    assert_eq!(
        names(&g, c.order()),
        ["gbuffer", "lighting", "sky", "tonemap"]
    );
    assert_eq!(depth.version(), 1);
    assert_eq!(c.lifetime(depth), Some(Lifetime { first: 0, last: 2 }));
    assert_eq!(c.physical_count(), 5);
}

#[test]
fn compute_pass_with_a_storage_buffer() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let lights = g.import_buffer(
        "lights",
        ImportedBuffer::declared(BufferDesc::new(4096, BU::STORAGE | BU::COPY_DST)),
    );
    let tiles = g.create_buffer("tile lists", BufferDesc::new(65536, BU::STORAGE));
    let depth = g.create_texture("depth", rt(TF::Depth32Float));
    let depth = g.add_render_pass("prepass", |p| p.write_depth(depth, LoadOp::Clear(1.0)));
    let tiles = g.add_compute_pass("cull lights", |p| {
        p.read_texture(depth);
        p.read_buffer(lights, BU::STORAGE);
        p.write_buffer(tiles, BU::STORAGE)
    });
    g.add_render_pass("shade", |p| {
        p.read_buffer(tiles, BU::STORAGE);
        p.read_buffer(lights, BU::STORAGE);
        p.read_depth(depth);
        let _ = p.write_color(out, CLEAR);
    });
    assert_eq!(g.pass_kind(PassId(1)), PassKind::Compute);
    let c = compile(&g).unwrap();
    assert_eq!(names(&g, c.order()), ["prepass", "cull lights", "shade"]);
    assert!(c.physical(tiles).is_some());
    assert_eq!(
        c.physical_desc(c.physical(tiles).unwrap()),
        ResourceDesc::Buffer(BufferDesc::new(65536, BU::STORAGE))
    );
}

#[test]
fn updating_a_fresh_transient_in_place_reads_garbage() {
    let mut g = RenderGraph::new();
    let b = g.create_buffer("particles", BufferDesc::new(1024, BU::STORAGE));
    g.add_compute_pass("simulate", |p| {
        p.keep();
        p.read_buffer(b, BU::STORAGE);
        let _ = p.write_buffer(b, BU::STORAGE);
    });
    assert!(matches!(
        compile(&g),
        Err(CompileError::ReadBeforeWrite {
            pass: "simulate",
            resource: "particles",
            ..
        })
    ));
}

#[test]
fn features_chain_through_renamed_versions() {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let hdr0 = g.create_texture("hdr", rt(TF::Rgba16Float));
    let mut hdr = g.add_render_pass("forward", |p| p.write_color(hdr0, CLEAR));
    // Three features each read the current HDR and write a new version
    // (through a scratch target, as bloom, fog and TAA would).
    for name in ["bloom", "fog", "taa"] {
        let scratch = g.create_texture("scratch", rt(TF::Rgba16Float));
        let s = g.add_render_pass(name, |p| {
            p.read_texture(hdr);
            p.write_color(scratch, CLEAR)
        });
        hdr = g.add_render_pass(name, |p| {
            p.read_texture(s);
            p.write_color(hdr, LoadOp::Load)
        });
    }
    assert_eq!(hdr.version(), 4);
    assert!(hdr.same_resource(hdr0));
    g.add_render_pass("tonemap", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(out, CLEAR);
    });
    let c = compile(&g).unwrap();
    assert_eq!(c.order().len(), 8);
    assert!(c.culled().is_empty());
    let ord: Vec<usize> = c.order().iter().map(|p| p.index()).collect();
    assert_eq!(ord, (0..8).collect::<Vec<_>>());
    // All three scratch targets are alive one step at a time: one allocation.
    assert_eq!(c.physical_count(), 2);
}

fn small_graph() -> (RenderGraph<'static>, CompiledGraph) {
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let hdr = g.create_texture("hdr", rt(TF::Rgba16Float));
    let dbg = g.create_texture("debug", rt(TF::Rgba8Unorm));
    let hdr = g.add_render_pass("forward", |p| p.write_color(hdr, CLEAR));
    g.add_render_pass("debug", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(dbg, CLEAR);
    });
    g.add_render_pass("tonemap", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(out, LoadOp::Load);
    });
    let c = compile(&g).unwrap();
    (g, c)
}

#[test]
fn dot_dump() {
    let (g, c) = small_graph();
    let expected = r#"digraph render_graph {
  rankdir=LR;
  p0 [shape=box, label="0: forward"];
  p1 [shape=box, style=dashed, label="debug (culled)"];
  p2 [shape=box, label="1: tonemap"];
  r0 [shape=ellipse, peripheries=2, label="surface v0"];
  r3 [shape=ellipse, label="hdr v1 #0"];
  r4 [shape=ellipse, label="debug v1"];
  r5 [shape=ellipse, peripheries=2, label="surface v1"];
  p0 -> r3;
  r3 -> p1;
  p1 -> r4;
  r3 -> p2;
  r0 -> p2;
  p2 -> r5;
}
"#;
    assert_eq!(c.to_dot(&g), expected);
}

#[test]
fn mermaid_dump() {
    let (g, c) = small_graph();
    let expected = r#"flowchart LR
  p0["0: forward"]
  p1["debug (culled)"]:::culled
  p2["1: tonemap"]
  r0(("surface v0"))
  r3(["hdr v1 #0"])
  r4(["debug v1"])
  r5(("surface v1"))
  p0 --> r3
  r3 --> p1
  p1 --> r4
  r3 --> p2
  r0 --> p2
  p2 --> r5
  classDef culled stroke-dasharray: 5 5
"#;
    assert_eq!(c.to_mermaid(&g), expected);
}

#[test]
fn compiler_reuses_its_memory_and_forgets_failed_graphs() {
    let (g, _) = small_graph();
    let mut compiler = GraphCompiler::new();
    let order = compiler.compile(&g).unwrap().order().to_vec();
    assert_eq!(compiler.compile(&g).unwrap().order(), order.as_slice());
    let mut bad = RenderGraph::new();
    let t = bad.create_texture("t", rt(TF::Rgba8Unorm));
    bad.add_render_pass("p", |p| {
        p.keep();
        p.read_texture(t);
    });
    assert!(compiler.compile(&bad).is_err());
    assert_eq!(compiler.compiled().graph(), None);
}

/// A frame's graph in `g`: forward, a culled debug pass, bloom and tonemap,
/// two with a closure borrowing `frame_data`. Returns the graph and `hdr`.
fn frame_graph<'a>(
    mut g: RenderGraph<'a>,
    frame_data: &'a str,
) -> (RenderGraph<'a>, TextureHandle) {
    let out = surface(&mut g);
    let hdr = g.create_texture("hdr", rt(TF::Rgba16Float));
    let dbg = g.create_texture("debug", rt(TF::Rgba8Unorm));
    let tmp = g.create_texture("bloom", rt(TF::Rgba16Float));
    let hdr = g.add_render_pass("forward", |p| {
        p.execute(move |_, _| assert!(!frame_data.is_empty()));
        p.write_color(hdr, CLEAR)
    });
    g.add_render_pass("debug", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(dbg, CLEAR);
        p.execute(move |_, _| assert!(!frame_data.is_empty()));
    });
    let tmp = g.add_render_pass("bloom", |p| {
        p.read_texture(hdr);
        p.write_color(tmp, CLEAR)
    });
    g.add_render_pass("tonemap", |p| {
        p.read_texture(hdr);
        p.read_texture(tmp);
        let _ = p.write_color(out, LoadOp::Load);
    });
    (g, hdr)
}

#[test]
fn a_recycled_graph_compiles_like_a_fresh_one_and_refuses_old_handles() {
    let fresh_data = String::from("fresh");
    let (fresh, fresh_hdr) = frame_graph(RenderGraph::new(), &fresh_data);
    let fresh_compiled = compile(&fresh).unwrap();

    // Frame 1 borrows data that is gone before frame 2: the storage keeps
    // no lifetime, only memory.
    let mut compiler = GraphCompiler::new();
    let (storage, old_id, stale) = {
        let frame_data = String::from("frame 1");
        let (g, hdr) = frame_graph(RenderGraph::with_storage(GraphStorage::new()), &frame_data);
        compiler.compile(&g).unwrap();
        let id = g.id();
        (g.recycle(), id, hdr)
    };
    assert!(storage.pass_capacity() >= 4 && storage.resource_capacity() >= 4);
    let capacity = format!("{storage:?}");

    // Frame 2, in frame 1's memory: a new id, the same compilation.
    let frame_data = String::from("frame 2");
    let (g, hdr) = frame_graph(RenderGraph::with_storage(storage), &frame_data);
    assert_ne!(g.id(), old_id);
    assert_ne!(g.id(), fresh.id());
    let c = compiler.compile(&g).unwrap();
    assert_eq!(c.graph(), Some(g.id()));
    assert_eq!(c.order(), fresh_compiled.order());
    assert_eq!(c.culled(), fresh_compiled.culled());
    assert_eq!(c.physical_count(), fresh_compiled.physical_count());
    assert_eq!(c.bytes_saved(), fresh_compiled.bytes_saved());
    assert_eq!(c.lifetime(hdr), fresh_compiled.lifetime(fresh_hdr));
    assert_eq!(c.physical(hdr), fresh_compiled.physical(fresh_hdr));
    assert_eq!(c.to_dot(&g), fresh_compiled.to_dot(&fresh));
    // Frame 1's handle names the same node index, but not this graph.
    assert_eq!(c.lifetime(stale), None);
    assert_eq!(g.label(stale), None);
    // Nothing grew: a graph no larger than the last allocates nothing.
    let storage = g.recycle();
    assert_eq!(format!("{storage:?}"), capacity);

    // Frame 3 uses frame 1's handle: refused, naming both graphs.
    let mut g = RenderGraph::with_storage(storage);
    let out = surface(&mut g);
    g.add_render_pass("tonemap", |p| {
        p.read_texture(stale);
        let _ = p.write_color(out, CLEAR);
    });
    assert_eq!(
        compiler.compile(&g).unwrap_err(),
        CompileError::ForeignHandle {
            pass: "tonemap",
            handle_graph: old_id.0,
            graph: g.id().0
        }
    );
    assert_eq!(compiler.compiled().graph(), None);
}

#[test]
fn the_pool_hands_out_new_graphs() {
    let mut pool = ResourcePool::new();
    let a: RenderGraph<'_> = pool.new_graph();
    let b: RenderGraph<'_> = pool.new_graph();
    assert_ne!(a.id(), b.id());
    assert_eq!((b.pass_count(), b.resource_count()), (0, 0));
    // Pools (and renderers) move between threads with the storage in them.
    fn send_sync<T: Send + Sync>() {}
    send_sync::<GraphStorage>();
}

#[test]
fn build_records_stay_small() {
    // Every access and version node is written while building and read by
    // each compile step: their size is the graph's memory traffic.
    // (A clear colour inline made an access 56 bytes.)
    assert!(std::mem::size_of::<builder::Access>() <= 32);
    assert!(std::mem::size_of::<builder::VersionNode>() <= 32);
}

#[test]
fn each_colour_target_keeps_its_clear_colour() {
    let red = Color {
        r: 1.0,
        ..Color::BLACK
    };
    let mut g = RenderGraph::new();
    let out = surface(&mut g);
    let a = g.create_texture("a", rt(TF::Rgba16Float));
    let b = g.create_texture("b", rt(TF::Rgba16Float));
    g.add_render_pass("p", |p| {
        let _ = p.write_color(a, LoadOp::Clear(red));
        let _ = p.write_color(b, CLEAR);
        let _ = p.write_color(out, LoadOp::Load);
    });
    let loads: Vec<_> = g
        .accesses
        .iter()
        .filter_map(|a| match a.kind {
            builder::AccessKind::Color(load) => Some(g.color_load(load)),
            _ => None,
        })
        .collect();
    assert_eq!(loads, [LoadOp::Clear(red), CLEAR, LoadOp::Load]);
    // Recycled, the next graph's colours start again.
    let mut g = RenderGraph::with_storage(g.recycle());
    let t = g.create_texture("t", rt(TF::Rgba16Float));
    g.add_render_pass("q", |p| {
        let _ = p.write_color(t, CLEAR);
    });
    let builder::AccessKind::Color(load) = g.accesses[0].kind else {
        panic!("a colour target");
    };
    assert_eq!(g.color_load(load), CLEAR);
}
