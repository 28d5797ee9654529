//! [`show_notice`]: a problem the player should know about that does not
//! end the game, said where the player looks.

/// Tells the player about a problem the game goes on after (saves that
/// could not be opened, an asset that failed to load): natively a warning
/// in the log; in the browser also a line in the page, in the element with
/// id `taos-notice` (made at the top of the page if it has none; marked
/// `data-shown="true"`), so it is not lost in the console. Errors that end
/// the game go to the page's error box instead (the engine does that).
pub fn show_notice(text: &str) {
    log::warn!("{text}");
    #[cfg(target_arch = "wasm32")]
    page::append(text);
}

#[cfg(target_arch = "wasm32")]
mod page {
    /// Notices kept in the page at once (the oldest go first).
    const KEEP: u32 = 8;

    pub(super) fn append(text: &str) {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let element = document.get_element_by_id("taos-notice").or_else(|| {
            let element = document.create_element("div").ok()?;
            element.set_id("taos-notice");
            let _ = element.set_attribute(
                "style",
                "position:fixed;left:8px;bottom:8px;max-width:60%;z-index:10;\
                 font:13px sans-serif;color:#fe8;background:rgba(0,0,0,.75);\
                 padding:4px 8px;white-space:pre-wrap;pointer-events:none",
            );
            document.body()?.append_with_node_1(&element).ok()?;
            Some(element)
        });
        let Some(element) = element else {
            return;
        };
        if let Ok(line) = document.create_element("div") {
            line.set_text_content(Some(text));
            let _ = element.append_with_node_1(&line);
        }
        while element.child_element_count() > KEEP {
            if let Some(oldest) = element.first_element_child() {
                oldest.remove();
            }
        }
        let _ = element.set_attribute("data-shown", "true");
    }
}
