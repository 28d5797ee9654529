//! [`LocalPostgres`]: a throwaway PostgreSQL server for tests and try-outs.
//!
//! It runs `initdb` into a temporary directory and starts the server with
//! `pg_ctl`, listening on a unix socket in that directory and on a free TCP
//! port of 127.0.0.1, with `fsync=on` (so a stop that kills the server tests
//! durability for real). Dropping it stops the server and removes the
//! directory; a watcher process does the same if this process dies first
//! (a panic, a kill, or a `static` that is never dropped).
//!
//! PostgreSQL's binaries are looked up on `PATH`, then under
//! `/usr/lib/postgresql/*/bin` (Debian and Ubuntu). `initdb` refuses to run
//! as root; as root the server runs as the `postgres` user (which the Debian
//! package creates) through `runuser`.
//!
//! ```no_run
//! use taos_storage_postgres::LocalPostgres;
//! // $TAOS_POSTGRES_URL if set, else a fresh server.
//! let pg = LocalPostgres::from_env_or_start()?;
//! let backend = pg.backend()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use taos_storage::StorageError;

use crate::PostgresBackend;

/// The environment variable naming an existing server for
/// [`LocalPostgres::from_env_or_start`].
pub const POSTGRES_URL_ENV: &str = "TAOS_POSTGRES_URL";

/// The superuser `initdb` creates; the server trusts local connections.
const USER: &str = "taos";

/// Why a local server could not be started or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LocalPostgresError {
    /// No `initdb`/`pg_ctl` on `PATH` or in `/usr/lib/postgresql/*/bin`.
    #[error(
        "PostgreSQL is not installed: no initdb on PATH or in /usr/lib/postgresql/*/bin; \
         install postgresql (apt-get install postgresql)"
    )]
    NotInstalled,
    /// Running as root, but there is no `postgres` user to run the server as.
    #[error(
        "running as root and there is no \"postgres\" user to run the server as \
         (initdb refuses root); install postgresql (apt-get install postgresql) or run as \
         another user"
    )]
    NoPostgresUser,
    /// A command failed.
    #[error("{command} failed ({status}): {output}")]
    Command {
        /// The command line.
        command: String,
        /// How it ended.
        status: String,
        /// What it printed (the end of the server log for `pg_ctl start`).
        output: String,
    },
    /// A file or process operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> LocalPostgresError {
    let what = what.into();
    move |source| LocalPostgresError::Io { what, source }
}

/// A PostgreSQL server for tests: one this process started (stopped and
/// deleted on drop), or the one `$TAOS_POSTGRES_URL` names.
#[derive(Debug)]
pub struct LocalPostgres {
    url: String,
    cluster: Option<Cluster>,
}

#[derive(Debug)]
struct Cluster {
    /// Removed on drop (after the server stopped).
    dir: tempfile::TempDir,
    bin: PathBuf,
    /// Run the server's commands as the `postgres` user (we are root).
    as_postgres: bool,
    port: u16,
    running: bool,
    /// Stops the server and removes `dir` once this process is gone.
    watcher: Option<Child>,
}

impl LocalPostgres {
    /// Starts a fresh server in a temporary directory.
    ///
    /// # Errors
    /// [`LocalPostgresError::NotInstalled`], or a failed `initdb`/`pg_ctl`.
    pub fn start() -> Result<Self, LocalPostgresError> {
        let bin = find_bin()?;
        let as_postgres = is_root();
        if as_postgres && !user_exists("postgres") {
            return Err(LocalPostgresError::NoPostgresUser);
        }
        let dir = tempfile::Builder::new()
            .prefix("taos-pg-")
            .tempdir()
            .map_err(io("creating a temporary directory"))?;
        let mut cluster = Cluster {
            dir,
            bin,
            as_postgres,
            port: 0,
            running: false,
            watcher: None,
        };
        if as_postgres {
            let path = cluster.dir.path().display().to_string();
            run(Command::new("chown").args(["postgres:postgres", &path]))?;
        }
        let data = cluster.data().display().to_string();
        cluster.run_pg(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ],
        )?;
        cluster.watch()?;
        cluster.start()?;
        Ok(Self {
            url: cluster.url(),
            cluster: Some(cluster),
        })
    }

    /// The server `$TAOS_POSTGRES_URL` names if it is set (and not empty),
    /// else a fresh one from [`start`](Self::start).
    ///
    /// # Errors
    /// As [`start`](Self::start).
    pub fn from_env_or_start() -> Result<Self, LocalPostgresError> {
        match std::env::var(POSTGRES_URL_ENV) {
            Ok(url) if !url.trim().is_empty() => Ok(Self { url, cluster: None }),
            _ => Self::start(),
        }
    }

    /// The server's connection string (a unix socket for a started server).
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The same server over TCP on 127.0.0.1 (`None` for `$TAOS_POSTGRES_URL`).
    #[must_use]
    pub fn tcp_url(&self) -> Option<String> {
        self.cluster
            .as_ref()
            .map(|c| format!("postgres://{USER}@127.0.0.1:{}/postgres", c.port))
    }

    /// Whether this process started the server (it is not `$TAOS_POSTGRES_URL`'s).
    #[must_use]
    pub fn started_here(&self) -> bool {
        self.cluster.is_some()
    }

    /// A backend connected to this server.
    ///
    /// # Errors
    /// As [`PostgresBackend::connect`].
    pub fn backend(&self) -> Result<PostgresBackend, StorageError> {
        PostgresBackend::connect(&self.url)
    }

    /// Stops a server started here at once, like a crash (`pg_ctl stop -m
    /// immediate`: no checkpoint; the next start recovers from the WAL).
    /// Does nothing for `$TAOS_POSTGRES_URL`'s server.
    ///
    /// # Errors
    /// A failed `pg_ctl`.
    pub fn stop(&mut self) -> Result<(), LocalPostgresError> {
        match &mut self.cluster {
            Some(cluster) => cluster.stop(),
            None => Ok(()),
        }
    }

    /// Starts a stopped server again, on the same socket directory and (if
    /// it is still free) port: take [`url`](Self::url) again afterwards.
    ///
    /// # Errors
    /// A failed `pg_ctl`.
    pub fn restart(&mut self) -> Result<(), LocalPostgresError> {
        if let Some(cluster) = &mut self.cluster
            && !cluster.running
        {
            cluster.start()?;
            // A new port if another process took the old one meanwhile.
            self.url = cluster.url();
        }
        Ok(())
    }
}

impl Cluster {
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn url(&self) -> String {
        format!(
            "host={} port={} user={USER} dbname=postgres",
            self.dir.path().display(),
            self.port
        )
    }

    /// Runs PostgreSQL program `program` (as `postgres` when we are root).
    fn run_pg(&self, program: &str, args: &[&str]) -> Result<String, LocalPostgresError> {
        let mut command = self.command(program);
        command.args(args);
        run(&mut command)
    }

    fn command(&self, program: &str) -> Command {
        let program = self.bin.join(program);
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program);
            c
        } else {
            Command::new(program)
        };
        // The caller's directory may be closed to the `postgres` user.
        command.current_dir(self.dir.path());
        command
    }

    /// Starts the server on a free port (a few tries: another process may
    /// take the port between our probe and the server's bind).
    fn start(&mut self) -> Result<(), LocalPostgresError> {
        let data = self.data().display().to_string();
        let log = self.dir.path().join("server.log").display().to_string();
        let mut last = None;
        for _ in 0..3 {
            if self.port == 0 || last.is_some() {
                self.port = free_port()?;
            }
            let options = format!(
                "-c listen_addresses=127.0.0.1 -c port={} -c unix_socket_directories={} -c fsync=on",
                self.port,
                self.dir.path().display()
            );
            let started = self.run_pg(
                "pg_ctl",
                &[
                    "-D", &data, "-l", &log, "-w", "-t", "60", "-o", &options, "start",
                ],
            );
            match started {
                Ok(_) => {
                    self.running = true;
                    return Ok(());
                }
                Err(LocalPostgresError::Command {
                    command, status, ..
                }) => {
                    let output = std::fs::read_to_string(&log).unwrap_or_default();
                    let tail = output.lines().rev().take(15).collect::<Vec<_>>();
                    last = Some(LocalPostgresError::Command {
                        command,
                        status,
                        output: tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
                    });
                }
                Err(other) => return Err(other),
            }
        }
        Err(last.unwrap_or(LocalPostgresError::NotInstalled))
    }

    fn stop(&mut self) -> Result<(), LocalPostgresError> {
        if !self.running {
            return Ok(());
        }
        let data = self.data().display().to_string();
        self.run_pg("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"])?;
        self.running = false;
        Ok(())
    }

    /// Spawns a shell that waits for this process to end, then stops the
    /// server and removes the directory.
    fn watch(&mut self) -> Result<(), LocalPostgresError> {
        let pg_ctl = self.bin.join("pg_ctl");
        let runner = if self.as_postgres {
            "runuser -u postgres -- "
        } else {
            ""
        };
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
             {runner}'{pg_ctl}' -D '{data}' -m immediate stop; rm -rf '{dir}'",
            pid = std::process::id(),
            pg_ctl = pg_ctl.display(),
            data = self.data().display(),
            dir = self.dir.path().display(),
        );
        let child = Command::new("sh")
            .args(["-c", &script])
            .current_dir("/")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(io("starting the cleanup watcher"))?;
        self.watcher = Some(child);
        Ok(())
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Err(error) = self.stop() {
            log::warn!("LocalPostgres: stopping the server failed: {error}");
        }
        if let Some(mut watcher) = self.watcher.take() {
            let _ = watcher.kill();
            let _ = watcher.wait();
        }
        // `dir` is removed when the TempDir drops, right after this.
    }
}

/// Runs `command`, returning its output, or an error with what it printed.
fn run(command: &mut Command) -> Result<String, LocalPostgresError> {
    let line = format!("{command:?}");
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(io(format!("running {line}")))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if output.status.success() {
        Ok(text)
    } else {
        Err(LocalPostgresError::Command {
            command: line,
            status: output.status.to_string(),
            output: text,
        })
    }
}

/// The directory holding `initdb` and `pg_ctl`: on `PATH`, else the newest
/// `/usr/lib/postgresql/<version>/bin`.
fn find_bin() -> Result<PathBuf, LocalPostgresError> {
    find_bin_in(
        std::env::var_os("PATH").as_deref(),
        Path::new("/usr/lib/postgresql"),
    )
}

fn find_bin_in(
    path: Option<&std::ffi::OsStr>,
    versions_dir: &Path,
) -> Result<PathBuf, LocalPostgresError> {
    let on_path = path
        .into_iter()
        .flat_map(|path| std::env::split_paths(path).collect::<Vec<_>>());
    let has_tools = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Some(dir) = on_path.into_iter().find(|dir| has_tools(dir)) {
        return Ok(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(versions_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            has_tools(&bin).then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .ok_or(LocalPostgresError::NotInstalled)
}

/// Whether this process runs as root (`id -u` prints 0).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "0")
}

fn user_exists(user: &str) -> bool {
    Command::new("id")
        .arg(user)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// A TCP port of 127.0.0.1 that was free a moment ago.
fn free_port() -> Result<u16, LocalPostgresError> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(io("probing for a free port"))?;
    let port = listener
        .local_addr()
        .map_err(io("probing for a free port"))?
        .port();
    Ok(port)
}

#[cfg(test)]
mod tests {
    use super::{LocalPostgresError, find_bin_in};

    #[test]
    fn a_missing_postgresql_says_how_to_install_it() {
        let empty = tempfile::tempdir().unwrap();
        let missing = find_bin_in(Some(empty.path().as_os_str()), empty.path());
        let Err(error @ LocalPostgresError::NotInstalled) = missing else {
            panic!("expected NotInstalled, got {missing:?}");
        };
        assert!(
            error.to_string().contains("apt-get install postgresql"),
            "{error}"
        );
    }

    #[test]
    fn the_newest_versioned_directory_wins_after_path() {
        let root = tempfile::tempdir().unwrap();
        for version in ["9", "15", "13", "not-a-version"] {
            let bin = root.path().join(version).join("bin");
            std::fs::create_dir_all(&bin).unwrap();
            for tool in ["initdb", "pg_ctl"] {
                std::fs::write(bin.join(tool), "").unwrap();
            }
        }
        let found = find_bin_in(None, root.path()).unwrap();
        assert_eq!(found, root.path().join("15").join("bin"));
        let on_path = root.path().join("9").join("bin");
        let found = find_bin_in(Some(on_path.as_os_str()), root.path()).unwrap();
        assert_eq!(found, on_path);
    }
}
