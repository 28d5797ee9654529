//! The facade's logger: warnings reach standard error, `RUST_LOG` filters,
//! and a game's own logger wins. (One test: the logger is process-global.)

#[test]
fn the_facade_installs_a_logger_once_and_warnings_pass_its_filter() {
    assert_eq!(
        log::max_level(),
        log::LevelFilter::Off,
        "no logger before init: warnings would reach no one"
    );
    assert!(taos_engine::init_logging(), "the first call installs it");
    assert!(
        !taos_engine::init_logging(),
        "a second call (or a game's own logger) is left alone"
    );
    if std::env::var_os("RUST_LOG").is_none() {
        assert!(log::log_enabled!(log::Level::Warn));
        assert!(!log::log_enabled!(log::Level::Info));
    }
}
