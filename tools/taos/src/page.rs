//! The game's web page: a template with placeholders, filled in.
//!
//! Placeholders: `{{TITLE}}` (HTML-escaped), `{{JS}}` (the JS glue's file
//! name, e.g. `my_game.js`) and `{{WASM}}` (the wasm's, e.g.
//! `my_game_bg.wasm`). A template without them is copied as it is.

/// The built-in page: a full-window canvas, a progress bar while the wasm
/// downloads, and a box that shows errors in the page.
pub const DEFAULT_PAGE: &str = include_str!("page.html");

/// What the placeholders become.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageVars {
    /// The page's title (plain text; escaped here).
    pub title: String,
    /// The JS glue's file name, beside the page.
    pub js: String,
    /// The wasm's file name, beside the page.
    pub wasm: String,
}

/// `template` with its placeholders replaced by `vars`.
pub fn render(template: &str, vars: &PageVars) -> String {
    template
        .replace("{{TITLE}}", &escape_html(&vars.title))
        .replace("{{JS}}", &vars.js)
        .replace("{{WASM}}", &vars.wasm)
}

/// `text` safe inside HTML text and quoted attributes.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> PageVars {
        PageVars {
            title: "Tom & Jerry <3".into(),
            js: "my_game.js".into(),
            wasm: "my_game_bg.wasm".into(),
        }
    }

    #[test]
    fn placeholders_are_replaced_everywhere() {
        let page = render(
            "<title>{{TITLE}}</title><h1>{{TITLE}}</h1>import('./{{JS}}'); fetch('{{WASM}}'); {{OTHER}}",
            &vars(),
        );
        assert_eq!(
            page,
            "<title>Tom &amp; Jerry &lt;3</title><h1>Tom &amp; Jerry &lt;3</h1>\
             import('./my_game.js'); fetch('my_game_bg.wasm'); {{OTHER}}"
        );
    }

    #[test]
    fn a_template_without_placeholders_is_unchanged() {
        let page = "<script type=module>import init from './crafty.js'; init();</script>";
        assert_eq!(render(page, &vars()), page);
    }

    #[test]
    fn the_default_page_is_complete() {
        let page = render(DEFAULT_PAGE, &vars());
        assert!(!page.contains("{{"), "a placeholder is left");
        for needle in [
            "<title>Tom &amp; Jerry &lt;3</title>",
            r#"import("./my_game.js")"#,
            r#"download("./my_game_bg.wasm")"#,
            "module_or_path: bytes",
            "Content-Length",
            r#"<pre id="taos-error">"#,
            "#taos-error[data-shown]",
            r#"addEventListener("error""#,
            r#"addEventListener("unhandledrejection""#,
            "window.taosLoadedMs = performance.now()",
            "<noscript>",
            "canvas { width: 100%; height: 100%; display: block; outline: none; }",
        ] {
            assert!(page.contains(needle), "the default page lacks {needle}");
        }
    }
}
