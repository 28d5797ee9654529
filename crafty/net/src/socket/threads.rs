//! A [`SocketLink`](super::SocketLink)'s two threads and what they share:
//! the reader fills the inbox (counting every frame against the flood
//! limit, queueing a pong for each ping), the writer sends the outgoing
//! queue (and a ping when idle), and either closes the link when its side
//! fails.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tungstenite::{Message, WebSocket};

use super::{Held, LinkConfig, OnActivity, SocketStream};
use crate::LinkClosed;

/// The reader's view of the socket: it reads from it, and once the
/// handshake is done its writes go nowhere. (Its WebSocket would answer
/// pings and close frames itself, writing from the reader's thread in the
/// middle of the writer's frames; the writer thread sends those answers
/// instead.)
#[derive(Debug)]
pub(super) struct ReadHalf {
    stream: SocketStream,
    discard: bool,
}

impl ReadHalf {
    /// `stream`, written to until [`discard_writes`](Self::discard_writes).
    pub(super) fn new(stream: SocketStream) -> Self {
        Self {
            stream,
            discard: false,
        }
    }

    /// From now on, writes are dropped.
    pub(super) fn discard_writes(&mut self) {
        self.discard = true;
    }

    /// The socket.
    pub(super) fn stream(&self) -> &TcpStream {
        self.stream.tcp()
    }

    /// The stream (plain or TLS).
    pub(super) fn socket(&self) -> &SocketStream {
        &self.stream
    }
}

impl Read for ReadHalf {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stream.read(buf)
    }
}

impl Write for ReadHalf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.discard {
            Ok(buf.len())
        } else {
            self.stream.write(buf)
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.discard {
            Ok(())
        } else {
            self.stream.flush()
        }
    }
}

/// Where a link is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Sending and receiving.
    Open,
    /// The writer sends a close frame (after what is queued, when
    /// `flush`), then shuts the socket.
    Closing {
        /// Send what is queued first (the owner closed; a peer that
        /// closed gets only the answering close frame).
        flush: bool,
    },
    /// Shut: both threads stop.
    Closed,
}

#[derive(Debug)]
struct State {
    phase: Phase,
    inbox: VecDeque<Vec<u8>>,
    /// Frames received since the owner last found the inbox empty.
    frames: usize,
    outbox: VecDeque<Message>,
    outbox_bytes: usize,
    reason: Option<String>,
    /// The writer sleeps on the condition variable: a queued message must
    /// wake it (otherwise it will find the message itself, and waking it
    /// would cost a system call for nothing: a server queues a message on
    /// every link every tick).
    writer_waiting: bool,
}

/// What the link and its threads share.
pub(super) struct Shared {
    state: Mutex<State>,
    /// Wakes the writer: something was queued, or the phase changed.
    wake: Condvar,
    /// The socket, to shut it from any thread.
    stream: TcpStream,
    config: LinkConfig,
    /// Released when the link and both threads are gone.
    _held: Option<Held>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("state", &self.state)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Shared {
    pub(super) fn new(stream: TcpStream, config: &LinkConfig, held: Option<Held>) -> Self {
        Self {
            state: Mutex::new(State {
                phase: Phase::Open,
                inbox: VecDeque::new(),
                frames: 0,
                outbox: VecDeque::new(),
                outbox_bytes: 0,
                reason: None,
                writer_waiting: false,
            }),
            wake: Condvar::new(),
            stream,
            config: *config,
            _held: held,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `message` for the writer, or closes the link when the
    /// queue is full.
    pub(super) fn queue(&self, message: Message) -> Result<(), LinkClosed> {
        let mut state = self.lock();
        if state.phase != Phase::Open {
            return Err(LinkClosed);
        }
        self.push(&mut state, message)
    }

    fn push(&self, state: &mut State, message: Message) -> Result<(), LinkClosed> {
        let bytes = message.len();
        let over_bytes = !state.outbox.is_empty()
            && state.outbox_bytes.saturating_add(bytes) > self.config.queue_bytes;
        if state.outbox.len() >= self.config.queue_messages || over_bytes {
            let reason = format!(
                "too slow: {} messages ({} bytes) queued unsent",
                state.outbox.len(),
                state.outbox_bytes
            );
            self.fail(state, reason);
            return Err(LinkClosed);
        }
        state.outbox_bytes += bytes;
        state.outbox.push_back(message);
        if state.writer_waiting {
            self.wake.notify_all();
        }
        Ok(())
    }

    /// Closes the link now, for `reason` (the first reason is kept): what
    /// is queued is dropped, the socket shut (a blocked write or read
    /// returns), both threads stop.
    fn fail(&self, state: &mut State, reason: String) {
        if state.phase == Phase::Closed {
            return;
        }
        if state.phase == Phase::Open {
            state.reason.get_or_insert(reason);
        }
        state.phase = Phase::Closed;
        state.outbox.clear();
        state.outbox_bytes = 0;
        let _ = self.stream.shutdown(Shutdown::Both);
        self.wake.notify_all();
    }

    /// The next message in the inbox; an empty inbox starts a new count
    /// of frames.
    pub(super) fn take(&self) -> Option<Vec<u8>> {
        let mut state = self.lock();
        let message = state.inbox.pop_front();
        if message.is_none() {
            state.frames = 0;
        }
        message
    }

    /// The owner closes: the writer sends what is queued and a close
    /// frame.
    pub(super) fn close(&self) {
        let mut state = self.lock();
        if state.phase == Phase::Open {
            state.phase = Phase::Closing { flush: true };
            self.wake.notify_all();
        }
    }

    pub(super) fn is_closed(&self) -> bool {
        let state = self.lock();
        state.phase != Phase::Open && state.inbox.is_empty()
    }

    pub(super) fn reason(&self) -> Option<String> {
        self.lock().reason.clone()
    }
}

/// Starts `reader`'s and `writer`'s threads.
pub(super) fn spawn(
    reader: WebSocket<ReadHalf>,
    writer: WebSocket<SocketStream>,
    shared: &Arc<Shared>,
    on_activity: Option<OnActivity>,
) -> std::io::Result<()> {
    let read = Arc::clone(shared);
    std::thread::Builder::new()
        .name("crafty-net reader".to_owned())
        .spawn(move || read_into(reader, &read, on_activity.as_ref()))?;
    let write = Arc::clone(shared);
    let started = std::thread::Builder::new()
        .name("crafty-net writer".to_owned())
        .spawn(move || write_from(writer, &write));
    if let Err(error) = started {
        shared.fail(
            &mut shared.lock(),
            format!("cannot start the writer: {error}"),
        );
        return Err(error);
    }
    Ok(())
}

/// What the reader does after a frame.
enum Heard {
    /// Nothing to tell the owner.
    Quiet,
    /// A message arrived or the link closed: call the activity hook.
    Activity,
    /// The link closed: call the hook and stop.
    Done,
}

/// Reads frames into `shared`'s inbox until the connection ends, floods
/// or falls silent.
fn read_into(mut reader: WebSocket<ReadHalf>, shared: &Shared, on_activity: Option<&OnActivity>) {
    let config = shared.config;
    let started = Instant::now();
    let mut heard_a_message = false;
    let _ = reader
        .get_ref()
        .stream()
        .set_read_timeout(Some(config.silence));
    loop {
        let first_by = config.first_message.filter(|_| !heard_a_message);
        if let Some(first) = first_by {
            let left = first.saturating_sub(started.elapsed());
            let wait = left.min(config.silence).max(Duration::from_millis(1));
            let _ = reader.get_ref().stream().set_read_timeout(Some(wait));
        }
        let frame = reader.read();
        let heard = {
            let mut state = shared.lock();
            let heard = hear(shared, &mut state, frame, first_by, &mut heard_a_message);
            if heard_a_message && first_by.is_some() {
                let _ = reader
                    .get_ref()
                    .stream()
                    .set_read_timeout(Some(config.silence));
            }
            heard
        };
        if matches!(heard, Heard::Quiet) {
            continue;
        }
        if let Some(on_activity) = on_activity
            && !on_activity()
        {
            return;
        }
        if matches!(heard, Heard::Done) {
            return;
        }
    }
}

/// Takes one frame (or the read's failure) into `state`.
fn hear(
    shared: &Shared,
    state: &mut State,
    frame: tungstenite::Result<Message>,
    first_by: Option<Duration>,
    heard_a_message: &mut bool,
) -> Heard {
    let config = &shared.config;
    if state.phase == Phase::Closed {
        return Heard::Done;
    }
    if frame.is_ok() {
        state.frames += 1;
        if state.frames > config.inbox_frames {
            let reason = format!(
                "flooded: more than {} frames between reads",
                config.inbox_frames
            );
            shared.fail(state, reason);
            return Heard::Done;
        }
    }
    match frame {
        Ok(Message::Binary(bytes)) => {
            *heard_a_message = true;
            state.inbox.push_back(bytes.to_vec());
            Heard::Activity
        }
        Ok(Message::Ping(data)) => {
            if state.phase == Phase::Open && shared.push(state, Message::Pong(data)).is_err() {
                return Heard::Done;
            }
            Heard::Quiet
        }
        Ok(Message::Pong(_) | Message::Frame(_)) => Heard::Quiet,
        Ok(Message::Text(_)) => {
            shared.fail(state, "a text message (not this protocol)".to_owned());
            Heard::Done
        }
        Ok(Message::Close(frame)) => {
            if state.phase == Phase::Open {
                let said = frame
                    .map(|f| f.reason.to_string())
                    .filter(|reason| !reason.is_empty());
                state.reason.get_or_insert(match said {
                    Some(reason) => format!("closed by the peer: {reason}"),
                    None => "closed by the peer".to_owned(),
                });
                state.phase = Phase::Closing { flush: false };
                shared.wake.notify_all();
            }
            Heard::Done
        }
        Err(error) => {
            let reason = match (&error, first_by) {
                (tungstenite::Error::Io(io), first) if timed_out(io) => match first {
                    Some(first) => format!("said nothing for {} s", first.as_secs_f32()),
                    None => format!(
                        "heard nothing for {} s",
                        shared.config.silence.as_secs_f32()
                    ),
                },
                (
                    tungstenite::Error::ConnectionClosed
                    | tungstenite::Error::AlreadyClosed
                    | tungstenite::Error::Protocol(
                        tungstenite::error::ProtocolError::ResetWithoutClosingHandshake,
                    ),
                    _,
                ) => "the connection closed".to_owned(),
                _ => format!("the connection failed: {error}"),
            };
            if state.phase == Phase::Open {
                shared.fail(state, reason);
            }
            // Closing: the writer finishes and shuts the socket.
            Heard::Done
        }
    }
}

fn timed_out(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// What the writer does next.
enum Next {
    /// Write a message (buffered).
    Write(Message),
    /// Nothing is queued: push out what is buffered.
    Flush,
    /// Send a close frame and shut the socket.
    Close,
}

/// Sends `shared`'s queue until the link closes, and a ping every
/// [`keepalive`](LinkConfig::keepalive), busy or not (a peer's answering
/// pong is how it is heard from when it has nothing to say).
fn write_from(mut writer: WebSocket<SocketStream>, shared: &Shared) {
    let keepalive = shared.config.keepalive;
    let mut last_ping = Instant::now();
    let mut unflushed = false;
    loop {
        let next = {
            let mut state = shared.lock();
            loop {
                if state.phase == Phase::Closed {
                    return;
                }
                if state.phase == (Phase::Closing { flush: false }) {
                    state.outbox.clear();
                    state.outbox_bytes = 0;
                }
                let since_ping = last_ping.elapsed();
                if since_ping >= keepalive && state.phase == Phase::Open {
                    last_ping = Instant::now();
                    break Next::Write(Message::Ping(Vec::new().into()));
                }
                if let Some(message) = state.outbox.pop_front() {
                    state.outbox_bytes = state.outbox_bytes.saturating_sub(message.len());
                    break Next::Write(message);
                }
                if unflushed {
                    break Next::Flush;
                }
                if matches!(state.phase, Phase::Closing { .. }) {
                    break Next::Close;
                }
                state.writer_waiting = true;
                state = shared
                    .wake
                    .wait_timeout(state, keepalive.saturating_sub(since_ping))
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
                state.writer_waiting = false;
            }
        };
        let written = match next {
            Next::Write(message) => {
                unflushed = true;
                writer.write(message)
            }
            Next::Flush => {
                unflushed = false;
                writer.flush()
            }
            Next::Close => {
                let _ = writer.close(None);
                let _ = writer.flush();
                let _ = writer.get_mut().close_notify();
                let mut state = shared.lock();
                state.phase = Phase::Closed;
                let _ = shared.stream.shutdown(Shutdown::Both);
                return;
            }
        };
        if let Err(error) = written {
            let reason = match &error {
                tungstenite::Error::Io(io) if timed_out(io) => format!(
                    "too slow: nothing written for {} s",
                    super::WRITE_TIMEOUT.as_secs()
                ),
                _ => format!("cannot send: {error}"),
            };
            shared.fail(&mut shared.lock(), reason);
            return;
        }
    }
}
