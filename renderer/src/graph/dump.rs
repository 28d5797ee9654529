//! Text dumps of a compiled graph for debugging: Graphviz DOT and Mermaid,
//! both written from its [`GraphOverview`].
//!
//! Passes are boxes numbered by execution position (culled passes dashed,
//! unnumbered); resource versions are ellipses labelled `name vN`, with the
//! physical slot of transients (`#0`) and imports drawn double. Edges go
//! from a version to the passes that read it and from a pass to the
//! versions it writes.

use std::fmt::Write;

use super::builder::RenderGraph;
use super::compile::CompiledGraph;
use super::overview::{GraphNode, GraphOverview, PassOverview, VersionOverview};

fn pass_label(pass: &PassOverview) -> String {
    match pass.position {
        Some(position) => format!("{position}: {}", pass.name),
        None => format!("{} (culled)", pass.name),
    }
}

fn version_label(overview: &GraphOverview, version: &VersionOverview) -> String {
    let resource = &overview.resources[version.resource];
    let slot = resource
        .physical
        .map(|s| format!(" #{}", s.index()))
        .unwrap_or_default();
    format!("{} v{}{slot}", resource.label, version.version)
}

fn node_name(node: GraphNode) -> String {
    match node {
        GraphNode::Pass(p) => format!("p{p}"),
        GraphNode::Version(v) => format!("r{v}"),
    }
}

impl GraphOverview {
    /// The graph as Graphviz DOT (`dot -Tsvg`).
    #[must_use]
    pub fn to_dot(&self) -> String {
        let mut out = String::from("digraph render_graph {\n  rankdir=LR;\n");
        for (p, pass) in self.passes.iter().enumerate() {
            let style = if pass.is_culled() {
                ", style=dashed"
            } else {
                ""
            };
            let label = pass_label(pass);
            let _ = writeln!(out, "  p{p} [shape=box{style}, label=\"{label}\"];");
        }
        for (i, version) in self.versions.iter().enumerate() {
            if !version.used {
                continue;
            }
            let peripheries = if self.resources[version.resource].imported {
                ", peripheries=2"
            } else {
                ""
            };
            let label = version_label(self, version);
            let _ = writeln!(
                out,
                "  r{i} [shape=ellipse{peripheries}, label=\"{label}\"];"
            );
        }
        for edge in &self.edges {
            let (from, to) = (node_name(edge.from), node_name(edge.to));
            let _ = writeln!(out, "  {from} -> {to};");
        }
        out.push_str("}\n");
        out
    }

    /// The graph as a Mermaid flowchart (renders in GitHub and mdBook with
    /// the mermaid plugin).
    #[must_use]
    pub fn to_mermaid(&self) -> String {
        let mut out = String::from("flowchart LR\n");
        for (p, pass) in self.passes.iter().enumerate() {
            let class = if pass.is_culled() { ":::culled" } else { "" };
            let label = pass_label(pass);
            let _ = writeln!(out, "  p{p}[\"{label}\"]{class}");
        }
        for (i, version) in self.versions.iter().enumerate() {
            if !version.used {
                continue;
            }
            let label = version_label(self, version);
            if self.resources[version.resource].imported {
                let _ = writeln!(out, "  r{i}((\"{label}\"))");
            } else {
                let _ = writeln!(out, "  r{i}([\"{label}\"])");
            }
        }
        for edge in &self.edges {
            let (from, to) = (node_name(edge.from), node_name(edge.to));
            let _ = writeln!(out, "  {from} --> {to}");
        }
        out.push_str("  classDef culled stroke-dasharray: 5 5\n");
        out
    }
}

impl CompiledGraph {
    /// The compiled graph as Graphviz DOT (`dot -Tsvg`). `graph` must be the
    /// graph this was compiled from.
    #[must_use]
    pub fn to_dot(&self, graph: &RenderGraph<'_>) -> String {
        self.overview(graph).to_dot()
    }

    /// The compiled graph as a Mermaid flowchart (renders in GitHub and
    /// mdBook with the mermaid plugin). `graph` must be the graph this was
    /// compiled from.
    #[must_use]
    pub fn to_mermaid(&self, graph: &RenderGraph<'_>) -> String {
        self.overview(graph).to_mermaid()
    }
}
