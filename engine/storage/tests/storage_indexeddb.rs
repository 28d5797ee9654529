//! The storage conformance suite against a real browser's IndexedDB
//! (wasm32 only; natively this file is empty).
//!
//! Run (needs `wasm-bindgen-cli` matching the locked `wasm-bindgen`, and
//! Chromium with chromedriver):
//! ```sh
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//! CHROMEDRIVER=/usr/bin/chromedriver \
//! cargo test --target wasm32-unknown-unknown -p taos_storage --test storage_indexeddb
//! ```

#![cfg(target_arch = "wasm32")]

use taos_storage::{IndexedDbBackend, conformance};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

macro_rules! browser_suite {
    ($($check:ident),* $(,)?) => {
        $(
            #[wasm_bindgen_test]
            async fn $check() {
                conformance::$check(&IndexedDbBackend::new()).await;
            }
        )*
    };
}

browser_suite!(
    crud,
    key_order,
    get_all_10k,
    spanning_transaction,
    rollback_on_error,
    read_only_refuses_writes,
    reopen_after_close,
    upgrade_keeps_data,
    record_versions,
    bad_record_isolated,
);
