//! Property tests: for random graphs, a successful compile respects every
//! dependency, culls exactly what no output needs, and never aliases two
//! transients that are alive at once.

use proptest::prelude::*;
use wgpu::{Color, LoadOp, TextureFormat as TF, TextureUsages as TU};

use super::builder::AccessKind;
use super::compile::validate;
use super::*;

/// One pass: which resources it reads (by index, and whether it takes an
/// older version), and which it writes (and whether it loads).
#[derive(Debug, Clone)]
struct PassPlan {
    reads: Vec<(usize, bool)>,
    writes: Vec<(usize, bool)>,
    to_output: bool,
}

fn plan() -> impl Strategy<Value = (Vec<bool>, Vec<PassPlan>)> {
    let resources = prop::collection::vec(any::<bool>(), 1..8);
    let pass = (
        prop::collection::vec((0usize..8, prop::bool::weighted(0.15)), 0..3),
        prop::collection::vec((0usize..8, any::<bool>()), 0..3),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(reads, writes, to_output)| PassPlan {
            reads,
            writes,
            to_output,
        });
    (resources, prop::collection::vec(pass, 1..24))
}

/// Builds the graph: reads only resources written before (latest version,
/// or sometimes the one before it), writes always the latest version.
fn build(formats: &[bool], passes: &[PassPlan]) -> RenderGraph<'static> {
    let usage = TU::RENDER_ATTACHMENT | TU::TEXTURE_BINDING;
    let mut g = RenderGraph::new();
    let out = g.import_texture(
        "out",
        ImportedTexture::declared(TextureDesc::new_2d(8, 8, TF::Rgba8Unorm, usage)),
    );
    let mut versions: Vec<Vec<TextureHandle>> = formats
        .iter()
        .map(|&wide| {
            let f = if wide {
                TF::Rgba16Float
            } else {
                TF::Rgba8Unorm
            };
            vec![g.create_texture("t", TextureDesc::new_2d(8, 8, f, usage))]
        })
        .collect();
    let mut out_latest = out;
    for plan in passes {
        let mut wrote = Vec::new();
        g.add_render_pass("p", |p| {
            for &(r, older) in &plan.reads {
                let Some(v) = versions.get(r % formats.len()) else {
                    continue;
                };
                if v.len() < 2 {
                    continue; // never written: reading it is a different test
                }
                let pick = if older && v.len() > 2 {
                    v.len() - 2
                } else {
                    v.len() - 1
                };
                p.read_texture(v[pick]);
            }
            // A render pass may not read what it renders to.
            let mut seen: Vec<usize> = plan.reads.iter().map(|&(r, _)| r % formats.len()).collect();
            for &(r, load) in plan.writes.iter().take(MAX_COLOR_TARGETS) {
                let r = r % formats.len();
                if seen.contains(&r) {
                    continue;
                }
                seen.push(r);
                let v = &versions[r];
                let load = if load && v.len() > 1 {
                    LoadOp::Load
                } else {
                    LoadOp::Clear(Color::BLACK)
                };
                wrote.push((r, p.write_color(*v.last().expect("v0"), load)));
            }
            if plan.to_output {
                out_latest = p.write_color(out_latest, LoadOp::Load);
            }
        });
        for (r, h) in wrote {
            versions[r].push(h);
        }
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn compiled_graphs_respect_dependencies_and_lifetimes((formats, passes) in plan()) {
        let g = build(&formats, &passes);
        let mut compiler = GraphCompiler::new();
        let c = match compiler.compile(&g) {
            Ok(c) => c,
            // Reading an older version can make a genuine cycle.
            Err(CompileError::Cycle { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("unexpected error: {e}"))),
        };
        let n = g.passes.len();
        let mut pos = vec![usize::MAX; n];
        for (i, p) in c.order().iter().enumerate() {
            pos[p.index()] = i;
        }
        // Every pass is either ordered or culled, never both.
        prop_assert_eq!(c.order().len() + c.culled().len(), n);
        for p in c.culled() {
            prop_assert_eq!(pos[p.index()], usize::MAX);
        }
        for (p, pass) in g.passes.iter().enumerate() {
            if pos[p] == usize::MAX {
                continue;
            }
            for a in &g.accesses[pass.accesses.start as usize..pass.accesses.end as usize] {
                let node = g.nodes[a.node as usize];
                // Producers of what is read run earlier and are alive.
                if let Some(read) = a.reads(&g.nodes) {
                    let read = g.nodes[read as usize];
                    if let Some(w) = read.writer {
                        prop_assert!(pos[w.index()] < pos[p], "read after write");
                    }
                    if let Some(o) = read.overwritten_by
                        && o.index() != p
                        && pos[o.index()] != usize::MAX
                    {
                        prop_assert!(pos[p] < pos[o.index()], "write after read");
                    }
                }
                if a.is_write()
                    && let Some(prev) = node.prev
                    && let Some(w) = g.nodes[prev as usize].writer
                    && pos[w.index()] != usize::MAX
                {
                    prop_assert!(pos[w.index()] < pos[p], "write after write");
                }
                if let AccessKind::Color(_) = a.kind {
                    let span = c.lifetimes[node.resource as usize];
                    prop_assert!(span.is_some_and(|s| s.first <= pos[p] && pos[p] <= s.last));
                }
            }
        }
        // A live pass either writes the output or feeds a live pass.
        for p in c.order() {
            let pass = &g.passes[p.index()];
            let accesses = &g.accesses[pass.accesses.start as usize..pass.accesses.end as usize];
            let writes_out = accesses.iter().any(|a| {
                a.is_write() && g.resources[g.nodes[a.node as usize].resource as usize].import.is_some()
            });
            let feeds_live = g.passes.iter().enumerate().any(|(q, other)| {
                pos[q] != usize::MAX
                    && g.accesses[other.accesses.start as usize..other.accesses.end as usize]
                        .iter()
                        .filter_map(|b| b.reads(&g.nodes))
                        .any(|r| g.nodes[r as usize].writer == Some(*p))
            });
            prop_assert!(writes_out || feeds_live, "pass {} should be culled", p.index());
        }
        // Transients sharing memory have equal descriptions and disjoint lifetimes.
        let live: Vec<usize> = (0..g.resources.len())
            .filter(|&r| g.resources[r].import.is_none() && c.lifetimes[r].is_some())
            .collect();
        for (i, &a) in live.iter().enumerate() {
            prop_assert!(c.physical[a].is_some());
            for &b in &live[i + 1..] {
                if c.physical[a] == c.physical[b] {
                    prop_assert_eq!(g.resources[a].desc, g.resources[b].desc);
                    let (la, lb) = (c.lifetimes[a].unwrap(), c.lifetimes[b].unwrap());
                    prop_assert!(!la.overlaps(lb), "{:?} and {:?} overlap", la, lb);
                }
            }
        }
        let sum: u64 = live.iter().map(|&r| g.resources[r].desc.byte_size()).sum();
        prop_assert_eq!(c.transient_bytes(), sum);
        prop_assert!(c.allocated_bytes() <= sum);
    }
}

/// Random passes of random accesses, valid or not: each access is
/// `(resource, op, older)` with op 0 sample, 1 clear-render, 2
/// load-render, 3 read-only depth, 4 load-depth; `older` uses the version
/// before the latest. Resources are `(depth, sampleable, cleared)`,
/// `cleared` ones written first by a pass of their own.
type RoughPlan = (Vec<(bool, bool, bool)>, Vec<Vec<(usize, u8, bool)>>);

fn rough_plan() -> impl Strategy<Value = RoughPlan> {
    let resource = (
        any::<bool>(),
        prop::bool::weighted(0.97),
        prop::bool::weighted(0.9),
    );
    let access = (0usize..6, 0u8..5, prop::bool::weighted(0.1));
    let pass = prop::collection::vec(access, 0..4);
    (
        prop::collection::vec(resource, 1..6),
        prop::collection::vec(pass, 1..16),
    )
}

fn build_rough((resources, passes): &RoughPlan) -> RenderGraph<'static> {
    let mut g = RenderGraph::new();
    let desc = |format, usage| TextureDesc::new_2d(8, 8, format, usage);
    let mut out = g.import_texture(
        "out",
        ImportedTexture::declared(desc(TF::Rgba8Unorm, TU::RENDER_ATTACHMENT)),
    );
    let mut versions: Vec<Vec<TextureHandle>> = Vec::new();
    for &(depth, sampleable, cleared) in resources {
        let format = if depth {
            TF::Depth32Float
        } else {
            TF::Rgba8Unorm
        };
        let mut usage = TU::RENDER_ATTACHMENT;
        if sampleable {
            usage |= TU::TEXTURE_BINDING;
        }
        let t = g.create_texture("t", desc(format, usage));
        let mut v = vec![t];
        if cleared {
            v.push(g.add_render_pass("clear", |p| {
                if depth {
                    p.write_depth(t, LoadOp::Clear(1.0))
                } else {
                    p.write_color(t, LoadOp::Clear(Color::BLACK))
                }
            }));
        }
        versions.push(v);
    }
    for (i, plan) in passes.iter().enumerate() {
        let mut wrote: Vec<(usize, TextureHandle)> = Vec::new();
        g.add_render_pass("p", |p| {
            let mut colors = 0;
            if i % 3 == 0 {
                out = p.write_color(out, LoadOp::Load);
                colors += 1;
            }
            let mut depth = false;
            for &(r, op, older) in plan {
                let r = r % versions.len();
                let v = &versions[r];
                let pick = if older && v.len() > 1 { 2 } else { 1 };
                let (read, latest) = (v[v.len() - pick], v[v.len() - 1]);
                // Each version is written once: one write per resource.
                if matches!(op, 1 | 2 | 4) && wrote.iter().any(|&(w, _)| w == r) {
                    continue;
                }
                match op {
                    0 => p.read_texture(read),
                    1 | 2 if colors < MAX_COLOR_TARGETS => {
                        colors += 1;
                        let load = if op == 1 {
                            LoadOp::Clear(Color::BLACK)
                        } else {
                            LoadOp::Load
                        };
                        wrote.push((r, p.write_color(latest, load)));
                    }
                    3 if !depth => {
                        depth = true;
                        p.read_depth(read);
                    }
                    4 if !depth => {
                        depth = true;
                        wrote.push((r, p.write_depth(latest, LoadOp::Load)));
                    }
                    _ => {}
                }
            }
        });
        for (r, h) in wrote {
            versions[r].push(h);
        }
    }
    g
}

/// Compiles `g` with and without the builder's shortcuts (registration
/// order as the order, validation skipped) and checks they agree.
fn shortcuts_agree(g: &mut RenderGraph<'static>) -> Result<(), TestCaseError> {
    let (backward, suspect) = (g.backward, g.suspect);
    if !suspect {
        prop_assert!(validate(g).is_ok(), "an invalid access was not flagged");
    }
    let mut compiler = GraphCompiler::new();
    let fast = compiler.compile(g).cloned();
    g.backward = true;
    g.suspect = true;
    let mut full = GraphCompiler::new();
    let slow = full.compile(g).cloned();
    match (fast, slow) {
        (Ok(fast), Ok(slow)) => {
            prop_assert_eq!(fast.order(), slow.order());
            prop_assert_eq!(fast.culled(), slow.culled());
            prop_assert_eq!(&fast.lifetimes, &slow.lifetimes);
            prop_assert_eq!(&fast.physical, &slow.physical);
            prop_assert_eq!(fast.allocated_bytes(), slow.allocated_bytes());
            prop_assert_eq!(fast.transient_bytes(), slow.transient_bytes());
        }
        (Err(fast), Err(slow)) => prop_assert_eq!(fast, slow),
        (fast, slow) => {
            return Err(TestCaseError::fail(format!(
                "backward {backward}, suspect {suspect}: {fast:?} but in full {slow:?}"
            )));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn builder_shortcuts_change_nothing_for_valid_graphs((formats, passes) in plan()) {
        shortcuts_agree(&mut build(&formats, &passes))?;
    }

    #[test]
    fn builder_shortcuts_change_nothing_for_any_graph(plan in rough_plan()) {
        shortcuts_agree(&mut build_rough(&plan))?;
    }
}
