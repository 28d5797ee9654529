//! [`args`]: a game's command line on every platform.

/// The game's command-line arguments, without the program's name.
///
/// Natively these are the process's arguments. In the browser a page has
/// no command line, so its address's query string stands in for one: each
/// `key=value` becomes `--key value` and each bare `key` becomes `--key`,
/// percent-decoded (`+` is a space). So `game.html?seconds=3&mute` gives
/// `["--seconds", "3", "--mute"]`, what `my_game --seconds 3 --mute` gives
/// natively, and one argument parser serves both. The parameters the engine
/// reads itself ([`ENGINE_PAGE_PARAMETERS`]: `backend=webgpu|webgl2`) are
/// left out.
pub fn args() -> Vec<String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::env::args().skip(1).collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        let query = web_sys::window()
            .and_then(|window| window.location().search().ok())
            .unwrap_or_default();
        args_from_query(&query)
    }
}

/// Page parameters the engine reads itself, left out of [`args`].
pub const ENGINE_PAGE_PARAMETERS: &[&str] = &["backend"];

/// The arguments a page address's query string (`?a=1&b`) stands for (see [`args`]).
pub fn args_from_query(query: &str) -> Vec<String> {
    let decode = |text: &str| {
        let spaced = text.replace('+', " ");
        percent_encoding::percent_decode_str(&spaced)
            .decode_utf8_lossy()
            .into_owned()
    };
    let mut args = Vec::new();
    for pair in query.trim_start_matches('?').split('&') {
        if pair.is_empty() {
            continue;
        }
        let key = pair.split_once('=').map_or(pair, |(key, _)| key);
        if ENGINE_PAGE_PARAMETERS.contains(&decode(key).as_str()) {
            continue;
        }
        match pair.split_once('=') {
            Some((key, value)) => {
                args.push(format!("--{}", decode(key)));
                args.push(decode(value));
            }
            None => args.push(format!("--{}", decode(pair))),
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::args_from_query;

    #[test]
    fn a_query_string_reads_as_a_command_line() {
        assert_eq!(
            args_from_query("?seconds=3&mute&name=Ada+Lovelace&path=a%2Fb"),
            [
                "--seconds",
                "3",
                "--mute",
                "--name",
                "Ada Lovelace",
                "--path",
                "a/b"
            ]
        );
        assert!(args_from_query("").is_empty());
        assert!(args_from_query("?&&").is_empty());
        assert_eq!(args_from_query("?bad=%FF"), ["--bad", "\u{FFFD}"]);
        assert_eq!(args_from_query("?backend=webgl2&speed=0"), ["--speed", "0"]);
    }
}
