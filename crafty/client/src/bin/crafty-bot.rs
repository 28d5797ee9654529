//! `crafty-bot`: a headless player for trying a server by hand and for the
//! browser test. It joins, stands still at the server's tick rate, and
//! prints each block change it learns of (`edit X Y Z BLOCK`, BLOCK being
//! crafty's block number, 0 for air) and each chat line, until it has run
//! `--seconds` or the server says goodbye.
//!
//! ```text
//! crafty-bot 127.0.0.1:30000 --name Bot --seconds 60
//! CRAFTY_CA_CERTS=lan-ca.pem crafty-bot wss://server.lan:30000 --name Bot
//! ```
//!
//! A `wss://` server's certificate must verify against the public CAs or
//! one of the CA certificates (PEM files, separated by `:`) named in
//! `CRAFTY_CA_CERTS`.

// A native tool: in a wasm32 build of this crate (the web crates' clippy
// pass) it is an empty program.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::io::Write as _;
    use std::time::{Duration, Instant};

    use crafty_client::ConnectionEvent;
    use crafty_client::bot::Bot;
    use crafty_net::socket::{SocketError, SocketLink};

    /// The command line as clap reads it.
    #[derive(Debug, clap::Parser)]
    #[command(
        name = "crafty-bot",
        about = "A headless crafty player: joins a server and prints the edits and chat it learns of"
    )]
    struct Cli {
        /// The server: `HOST:PORT` or `ws://HOST:PORT` (plain), or
        /// `wss://HOST:PORT` (TLS; the certificate must verify against the
        /// public CAs or those in the PEM files CRAFTY_CA_CERTS names,
        /// separated by `:`).
        #[arg(value_name = "ADDRESS")]
        address: String,
        /// The name to join as.
        #[arg(long, value_name = "NAME", default_value = "Bot")]
        name: String,
        /// How long to play, in seconds.
        #[arg(long, value_name = "N", default_value_t = 60)]
        seconds: u64,
    }

    pub(super) fn main() {
        use clap::Parser as _;
        let cli = Cli::parse();
        if let Err(e) = run(&cli) {
            eprintln!("crafty-bot: {e}");
            std::process::exit(2);
        }
    }

    fn run(cli: &Cli) -> Result<(), SocketError> {
        let (address, name, seconds) = (&cli.address, &cli.name, cli.seconds);
        let link = SocketLink::connect(address.as_str())?;
        let mut bot = Bot::join(name, link, None, 1);
        let end = Instant::now() + Duration::from_secs(seconds);
        let mut tick = Duration::from_millis(50);
        let mut out = std::io::stdout();
        while Instant::now() < end {
            for event in bot.receive() {
                let line = match event {
                    ConnectionEvent::Welcomed(welcome) => {
                        tick = Duration::from_secs_f64(1.0 / f64::from(welcome.tick_hz.max(1)));
                        format!("joined seed {}", welcome.seed)
                    }
                    ConnectionEvent::Block { at, block } => {
                        format!("edit {} {} {} {}", at.x, at.y, at.z, u8::from(block))
                    }
                    ConnectionEvent::Chat { from, text } => format!("chat <{from}> {text}"),
                    ConnectionEvent::Closed(reason) => {
                        println!("closed: {reason}");
                        return Ok(());
                    }
                    ConnectionEvent::Corrected(_) | ConnectionEvent::Inventory(_) => continue,
                };
                println!("{line}");
                let _ = out.flush();
            }
            if bot.is_playing() {
                bot.send_flags(0);
            }
            std::thread::sleep(tick);
        }
        Ok(())
    }
}
