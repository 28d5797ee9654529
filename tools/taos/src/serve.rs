//! A static file server on std's `TcpListener`, one thread per connection.
//!
//! GET and HEAD only, one request per connection (`Connection: close`),
//! `Content-Length` always set (the page's progress bar reads it),
//! `Cache-Control: no-cache` (a rebuilt game is never stale). What a path
//! may name is decided by [`crate::request`]: nothing outside the folder.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};

use crate::changes::{CHANGES_PATH, ChangeFeed};
use crate::mime::content_type;
use crate::request::{Located, Refusal, locate, path_part, relative_path};

/// The longest request head read (request line and headers).
const MAX_HEAD: usize = 16 * 1024;

/// A bound server, ready to [`run`](Server::run).
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    root: PathBuf,
    log: bool,
    changes: Option<ChangeFeed>,
}

impl Server {
    /// Listens on `host:port` (port 0: any free one) to serve the folder
    /// `root`.
    pub fn bind(root: &Path, host: &str, port: u16) -> anyhow::Result<Self> {
        let canonical = root
            .canonicalize()
            .with_context(|| format!("cannot serve {}: it does not exist", root.display()))?;
        if !canonical.is_dir() {
            bail!("cannot serve {}: it is not a folder", root.display());
        }
        let listener = TcpListener::bind((host, port)).map_err(|error| match error.kind() {
            io::ErrorKind::AddrInUse => anyhow::anyhow!(
                "port {port} on {host} is in use (another server?): stop that one, \
                 or pick another port with --port"
            ),
            io::ErrorKind::PermissionDenied => anyhow::anyhow!(
                "not allowed to listen on {host}:{port} (ports below 1024 need privileges): \
                 pick another port with --port"
            ),
            _ => anyhow::anyhow!("cannot listen on {host}:{port}: {error}"),
        })?;
        Ok(Self {
            listener,
            root: canonical,
            log: true,
            changes: None,
        })
    }

    /// Whether each request is logged on stderr (on by default).
    pub fn with_log(mut self, log: bool) -> Self {
        self.log = log;
        self
    }

    /// Streams `feed`'s changed asset paths to pages that listen on
    /// `/__taos/changes` (server-sent events): `taos web serve --watch`.
    pub fn with_changes(mut self, feed: ChangeFeed) -> Self {
        self.changes = Some(feed);
        self
    }

    /// The address it listens on (the real port when bound to port 0).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The folder served (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Serves until the process ends, each connection on its own thread.
    pub fn run(self) {
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            let root = self.root.clone();
            let log = self.log;
            let changes = self.changes.clone();
            std::thread::spawn(move || {
                if let Err(error) = handle(stream, &root, log, changes.as_ref())
                    && log
                {
                    eprintln!("taos serve: {error}");
                }
            });
        }
    }
}

/// One connection: reads the request head, answers, closes.
fn handle(
    stream: TcpStream,
    root: &Path,
    log: bool,
    changes: Option<&ChangeFeed>,
) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(60)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    let Some(request_line) = read_head(&mut reader)? else {
        return respond_text(&mut writer, 400, "bad request\n", false, &[]);
    };
    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return respond_text(&mut writer, 400, "bad request\n", false, &[]);
    };
    if !version.starts_with("HTTP/1.") {
        return respond_text(&mut writer, 400, "bad request\n", false, &[]);
    }
    if let (Some(feed), "GET") = (changes, method)
        && path_part(target) == CHANGES_PATH
    {
        if log {
            eprintln!("{method} {target} 200 (listening for changes)");
        }
        return stream_changes(&mut writer, feed);
    }
    let status = answer(&mut writer, root, method, target)?;
    if log {
        eprintln!("{method} {target} {status}");
    }
    Ok(())
}

/// Server-sent events: one `data:` line per changed asset path, a comment
/// every 15 s to keep the connection open, until the page goes away.
fn stream_changes(writer: &mut TcpStream, feed: &ChangeFeed) -> io::Result<()> {
    writer.set_write_timeout(Some(Duration::from_secs(5)))?;
    writer.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\nretry: 1000\n\n",
    )?;
    writer.flush()?;
    let changes = feed.subscribe();
    loop {
        let message = match changes.recv_timeout(Duration::from_secs(15)) {
            Ok(path) => format!("data: {path}\n\n"),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => ": still here\n\n".to_owned(),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        };
        writer.write_all(message.as_bytes())?;
        writer.flush()?;
    }
}

/// Answers `method target`; returns the status sent.
fn answer(writer: &mut TcpStream, root: &Path, method: &str, target: &str) -> io::Result<u16> {
    let head = match method {
        "GET" => false,
        "HEAD" => true,
        _ => {
            let body = format!("method {method} not allowed: GET and HEAD only\n");
            respond_text(writer, 405, &body, false, &[("Allow", "GET, HEAD")])?;
            return Ok(405);
        }
    };
    let path = path_part(target);
    let relative = match relative_path(target) {
        Ok(relative) => relative,
        Err(Refusal::BadRequest) => {
            respond_text(writer, 400, &format!("bad request: {path}\n"), head, &[])?;
            return Ok(400);
        }
        Err(Refusal::Forbidden) => {
            respond_text(writer, 403, &format!("forbidden: {path}\n"), head, &[])?;
            return Ok(403);
        }
    };
    match locate(root, &relative, path.ends_with('/')) {
        Located::File(file) => {
            respond_file(writer, &file, head)?;
            Ok(200)
        }
        Located::AddSlash => {
            let location = format!("{path}/{}", &target[path.len()..]);
            let body = format!("moved to {location}\n");
            respond_text(writer, 301, &body, head, &[("Location", &location)])?;
            Ok(301)
        }
        Located::NotFound => {
            respond_text(writer, 404, &format!("not found: {path}\n"), head, &[])?;
            Ok(404)
        }
        Located::Forbidden => {
            respond_text(writer, 403, &format!("forbidden: {path}\n"), head, &[])?;
            Ok(403)
        }
    }
}

/// Reads the request head; returns its first line, or `None` if the head
/// is empty, too long or not text.
fn read_head(reader: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut first = None;
    let mut total = 0;
    let mut line = String::new();
    loop {
        line.clear();
        let read = match reader.read_line(&mut line) {
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::InvalidData => return Ok(None),
            Err(error) => return Err(error),
        };
        total += read;
        if read == 0 || total > MAX_HEAD {
            return Ok(None);
        }
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            return Ok(first);
        }
        if first.is_none() {
            first = Some(trimmed.to_string());
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "",
    }
}

fn write_head(
    writer: &mut impl Write,
    status: u16,
    content_type: &str,
    length: u64,
    extra: &[(&str, &str)],
) -> io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n\
         Cache-Control: no-cache\r\nConnection: close\r\n",
        reason(status)
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    writer.write_all(head.as_bytes())
}

fn respond_text(
    writer: &mut impl Write,
    status: u16,
    body: &str,
    head_only: bool,
    extra: &[(&str, &str)],
) -> io::Result<()> {
    let kind = "text/plain; charset=utf-8";
    write_head(writer, status, kind, body.len() as u64, extra)?;
    if !head_only {
        writer.write_all(body.as_bytes())?;
    }
    writer.flush()
}

fn respond_file(writer: &mut impl Write, path: &Path, head_only: bool) -> io::Result<()> {
    let mut file = File::open(path)?;
    let length = file.metadata()?.len();
    write_head(writer, 200, content_type(path), length, &[])?;
    if !head_only {
        io::copy(&mut file, writer)?;
    }
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_dir::TestDir;
    use std::io::Read;

    /// Sends `request` raw and returns (status line, headers, body).
    fn fetch(addr: SocketAddr, request: &str) -> (String, String, Vec<u8>) {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let split = response
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a response head");
        let head = String::from_utf8(response[..split].to_vec()).unwrap();
        let body = response[split + 4..].to_vec();
        let (status, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
        (status.to_string(), headers.to_string(), body)
    }

    fn get(addr: SocketAddr, path: &str) -> (String, String, Vec<u8>) {
        fetch(addr, &format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n"))
    }

    #[test]
    fn pages_listening_for_changes_get_each_published_path_as_an_event() {
        let dir = TestDir::new("serve-changes");
        dir.write("index.html", b"home");
        let feed = ChangeFeed::new();
        let server = Server::bind(dir.path(), "127.0.0.1", 0)
            .unwrap()
            .with_log(false)
            .with_changes(feed.clone());
        let addr = server.local_addr().unwrap();
        std::thread::spawn(move || server.run());
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .write_all(b"GET /__taos/changes HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(stream);
        let mut head = String::new();
        while !head.ends_with("retry: 1000\n\n") {
            let mut line = String::new();
            assert!(reader.read_line(&mut line).unwrap() > 0, "closed: {head}");
            head.push_str(&line);
        }
        assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
        assert!(head.contains("Content-Type: text/event-stream"), "{head}");
        // The listener subscribes once the head is out: publish until it hears.
        let mut line = String::new();
        while feed.listeners() == 0 {
            std::thread::yield_now();
        }
        feed.publish("models/box.gltf");
        reader.read_line(&mut line).unwrap();
        assert_eq!(line, "data: models/box.gltf\n");
        // Without a feed the path is a plain missing file.
        let plain = Server::bind(dir.path(), "127.0.0.1", 0)
            .unwrap()
            .with_log(false);
        let plain_addr = plain.local_addr().unwrap();
        std::thread::spawn(move || plain.run());
        let (status, _, _) = get(plain_addr, "/__taos/changes");
        assert_eq!(status, "HTTP/1.1 404 Not Found");
    }

    #[test]
    fn serves_files_over_real_http() {
        let dir = TestDir::new("serve");
        let wasm = vec![0u8, 97, 115, 109, 1, 0, 0, 0, 42];
        dir.write("site/game_bg.wasm", &wasm);
        dir.write("site/index.html", b"<!doctype html>home");
        dir.write("site/sub/index.html", b"sub");
        dir.write("secret.txt", b"secret");
        let server = Server::bind(&dir.path().join("site"), "127.0.0.1", 0)
            .unwrap()
            .with_log(false);
        let addr = server.local_addr().unwrap();
        std::thread::spawn(move || server.run());

        let (status, headers, body) = get(addr, "/game_bg.wasm");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(
            headers.contains("Content-Type: application/wasm"),
            "{headers}"
        );
        assert!(headers.contains("Content-Length: 9"), "{headers}");
        assert!(headers.contains("Cache-Control: no-cache"), "{headers}");
        assert_eq!(body, wasm);

        let (status, headers, body) =
            fetch(addr, "HEAD /game_bg.wasm?v=2 HTTP/1.1\r\nHost: x\r\n\r\n");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(headers.contains("Content-Length: 9"), "{headers}");
        assert!(body.is_empty());

        let (status, headers, body) = get(addr, "/");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(headers.contains("Content-Type: text/html; charset=utf-8"));
        assert_eq!(body, b"<!doctype html>home");

        let (status, headers, _) = get(addr, "/sub?x=1");
        assert_eq!(status, "HTTP/1.1 301 Moved Permanently");
        assert!(headers.contains("Location: /sub/?x=1"), "{headers}");
        assert_eq!(get(addr, "/sub/").2, b"sub");

        let (status, headers, body) = get(addr, "/missing.wasm");
        assert_eq!(status, "HTTP/1.1 404 Not Found");
        assert!(headers.contains("Content-Length: "), "{headers}");
        assert_eq!(
            String::from_utf8(body).unwrap(),
            "not found: /missing.wasm\n"
        );

        for traversal in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/a/../../secret.txt",
        ] {
            let (status, _, body) = get(addr, traversal);
            assert_eq!(status, "HTTP/1.1 403 Forbidden", "{traversal}");
            assert!(String::from_utf8(body).unwrap().starts_with("forbidden: "));
        }

        let (status, headers, _) = fetch(addr, "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
        assert_eq!(status, "HTTP/1.1 405 Method Not Allowed");
        assert!(headers.contains("Allow: GET, HEAD"), "{headers}");

        assert_eq!(
            fetch(addr, "nonsense\r\n\r\n").0,
            "HTTP/1.1 400 Bad Request"
        );
    }

    #[test]
    fn a_port_in_use_says_so() {
        let dir = TestDir::new("in-use");
        let first = Server::bind(dir.path(), "127.0.0.1", 0).unwrap();
        let port = first.local_addr().unwrap().port();
        let error = Server::bind(dir.path(), "127.0.0.1", port)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("port {port} on 127.0.0.1 is in use")),
            "{error}"
        );
    }

    #[test]
    fn a_missing_folder_says_so() {
        let dir = TestDir::new("no-folder");
        let error = Server::bind(&dir.path().join("nope"), "127.0.0.1", 0)
            .unwrap_err()
            .to_string();
        assert!(error.contains("does not exist"), "{error}");
    }
}
