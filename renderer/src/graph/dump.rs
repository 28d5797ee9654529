//! Text dumps of a compiled graph for debugging: Graphviz DOT and Mermaid.
//!
//! Passes are boxes numbered by execution position (culled passes dashed,
//! unnumbered); resource versions are ellipses labelled `name vN`, with the
//! physical slot of transients (`#0`) and imports drawn double. Edges go
//! from a version to the passes that read it and from a pass to the
//! versions it writes.

use std::fmt::Write;

use super::builder::RenderGraph;
use super::compile::CompiledGraph;

struct Names {
    pass_labels: Vec<String>,
    node_labels: Vec<String>,
    node_used: Vec<bool>,
    node_imported: Vec<bool>,
}

fn names(compiled: &CompiledGraph, graph: &RenderGraph<'_>) -> Names {
    let mut pass_labels: Vec<String> = graph
        .passes
        .iter()
        .map(|p| format!("{} (culled)", p.name))
        .collect();
    for (pos, id) in compiled.order.iter().enumerate() {
        pass_labels[id.index()] = format!("{pos}: {}", graph.passes[id.index()].name);
    }
    let mut node_used = vec![false; graph.nodes.len()];
    for a in &graph.accesses {
        node_used[a.node as usize] = true;
        if let Some(prev) = a.reads(&graph.nodes) {
            node_used[prev as usize] = true;
        }
    }
    let node_labels = graph
        .nodes
        .iter()
        .map(|n| {
            let res = &graph.resources[n.resource as usize];
            let slot = compiled
                .physical
                .get(n.resource as usize)
                .copied()
                .flatten()
                .map(|s| format!(" #{}", s.index()))
                .unwrap_or_default();
            format!("{} v{}{slot}", res.label, n.version)
        })
        .collect();
    let node_imported = graph
        .nodes
        .iter()
        .map(|n| graph.resources[n.resource as usize].import.is_some())
        .collect();
    Names {
        pass_labels,
        node_labels,
        node_used,
        node_imported,
    }
}

/// Calls `edge(from_is_pass, from, to_is_pass, to)` for every edge, in
/// registration order. A write that keeps the previous version also gets an
/// edge from that version into the pass.
fn edges(graph: &RenderGraph<'_>, mut edge: impl FnMut(bool, usize, bool, usize)) {
    for (p, pass) in graph.passes.iter().enumerate() {
        let span = pass.accesses.start as usize..pass.accesses.end as usize;
        for a in &graph.accesses[span] {
            if let Some(read) = a.reads(&graph.nodes) {
                edge(false, read as usize, true, p);
            }
            if a.is_write() {
                edge(true, p, false, a.node as usize);
            }
        }
    }
}

impl CompiledGraph {
    /// The compiled graph as Graphviz DOT (`dot -Tsvg`). `graph` must be the
    /// graph this was compiled from.
    #[must_use]
    pub fn to_dot(&self, graph: &RenderGraph<'_>) -> String {
        let n = names(self, graph);
        let mut out = String::from("digraph render_graph {\n  rankdir=LR;\n");
        for (p, label) in n.pass_labels.iter().enumerate() {
            let style = if self.is_culled(super::PassId(p as u32)) {
                ", style=dashed"
            } else {
                ""
            };
            let _ = writeln!(out, "  p{p} [shape=box{style}, label=\"{label}\"];");
        }
        for (i, label) in n.node_labels.iter().enumerate() {
            if !n.node_used[i] {
                continue;
            }
            let peripheries = if n.node_imported[i] {
                ", peripheries=2"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  r{i} [shape=ellipse{peripheries}, label=\"{label}\"];"
            );
        }
        edges(graph, |from_pass, from, to_pass, to| {
            let f = if from_pass { 'p' } else { 'r' };
            let t = if to_pass { 'p' } else { 'r' };
            let _ = writeln!(out, "  {f}{from} -> {t}{to};");
        });
        out.push_str("}\n");
        out
    }

    /// The compiled graph as a Mermaid flowchart (renders in GitHub and
    /// mdBook with the mermaid plugin). `graph` must be the graph this was
    /// compiled from.
    #[must_use]
    pub fn to_mermaid(&self, graph: &RenderGraph<'_>) -> String {
        let n = names(self, graph);
        let mut out = String::from("flowchart LR\n");
        for (p, label) in n.pass_labels.iter().enumerate() {
            let class = if self.is_culled(super::PassId(p as u32)) {
                ":::culled"
            } else {
                ""
            };
            let _ = writeln!(out, "  p{p}[\"{label}\"]{class}");
        }
        for (i, label) in n.node_labels.iter().enumerate() {
            if !n.node_used[i] {
                continue;
            }
            if n.node_imported[i] {
                let _ = writeln!(out, "  r{i}((\"{label}\"))");
            } else {
                let _ = writeln!(out, "  r{i}([\"{label}\"])");
            }
        }
        edges(graph, |from_pass, from, to_pass, to| {
            let f = if from_pass { 'p' } else { 'r' };
            let t = if to_pass { 'p' } else { 'r' };
            let _ = writeln!(out, "  {f}{from} --> {t}{to}");
        });
        out.push_str("  classDef culled stroke-dasharray: 5 5\n");
        out
    }
}
