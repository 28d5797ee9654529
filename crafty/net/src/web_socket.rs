//! [`WebSocketLink`]: the browser's WebSocket as a [`Link`]. Messages that
//! arrive are queued by the socket's event handlers (on the page's event
//! loop, between frames) and read by the game each frame.
//!
//! A message over [`MAX_SERVER_MESSAGE`] or in text, or more than
//! [`INBOX_LIMIT`] waiting, closes the link, as natively.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::{Link, LinkClosed, MAX_SERVER_MESSAGE};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{BinaryType, MessageEvent, WebSocket};

/// Messages a link may have waiting before it counts as a flood.
pub const INBOX_LIMIT: usize = 4096;

#[derive(Debug, Default)]
struct Inbox {
    messages: VecDeque<Vec<u8>>,
    open: bool,
    closed: bool,
    /// Messages sent before the socket opened.
    waiting: Vec<Vec<u8>>,
}

/// The page refused to open a WebSocket (a malformed URL, a blocked port):
/// its own description of why.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct WebSocketError(pub String);

/// A WebSocket to a crafty server, in the page; see the [module docs](self).
pub struct WebSocketLink {
    socket: WebSocket,
    inbox: Rc<RefCell<Inbox>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_open: Closure<dyn FnMut()>,
    _on_close: Closure<dyn FnMut()>,
}

impl std::fmt::Debug for WebSocketLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebSocketLink")
            .field("url", &self.socket.url())
            .finish_non_exhaustive()
    }
}

impl WebSocketLink {
    /// Opens a WebSocket to `url` (`ws://host:port/`). Messages sent before
    /// it opens are sent when it does.
    ///
    /// # Errors
    /// The page refused the address (a malformed URL, a blocked port).
    pub fn connect(url: &str) -> Result<Self, WebSocketError> {
        let socket = WebSocket::new(url).map_err(|e| WebSocketError(format!("{e:?}")))?;
        socket.set_binary_type(BinaryType::Arraybuffer);
        let inbox = Rc::new(RefCell::new(Inbox::default()));
        let filled = Rc::clone(&inbox);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let mut inbox = filled.borrow_mut();
            match event.data().dyn_into::<js_sys::ArrayBuffer>() {
                Ok(buffer) if (buffer.byte_length() as usize) <= MAX_SERVER_MESSAGE => {
                    if inbox.messages.len() >= INBOX_LIMIT {
                        inbox.closed = true;
                    } else {
                        inbox
                            .messages
                            .push_back(js_sys::Uint8Array::new(&buffer).to_vec());
                    }
                }
                _ => inbox.closed = true,
            }
        });
        let opened = Rc::clone(&inbox);
        let sender = socket.clone();
        let on_open = Closure::<dyn FnMut()>::new(move || {
            let mut inbox = opened.borrow_mut();
            inbox.open = true;
            for message in std::mem::take(&mut inbox.waiting) {
                if sender.send_with_u8_array(&message).is_err() {
                    inbox.closed = true;
                }
            }
        });
        let ended = Rc::clone(&inbox);
        let on_close = Closure::<dyn FnMut()>::new(move || ended.borrow_mut().closed = true);
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        socket.set_onerror(Some(on_close.as_ref().unchecked_ref()));
        Ok(Self {
            socket,
            inbox,
            _on_message: on_message,
            _on_open: on_open,
            _on_close: on_close,
        })
    }
}

impl Link for WebSocketLink {
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed> {
        let mut inbox = self.inbox.borrow_mut();
        if inbox.closed {
            return Err(LinkClosed);
        }
        if !inbox.open {
            inbox.waiting.push(message);
            return Ok(());
        }
        if self.socket.send_with_u8_array(&message).is_err() {
            inbox.closed = true;
            return Err(LinkClosed);
        }
        Ok(())
    }

    fn receive(&mut self) -> Option<Vec<u8>> {
        self.inbox.borrow_mut().messages.pop_front()
    }

    fn close(&mut self) {
        let _ = self.socket.close();
        self.inbox.borrow_mut().closed = true;
    }

    fn is_closed(&self) -> bool {
        let inbox = self.inbox.borrow();
        inbox.closed && inbox.messages.is_empty()
    }
}

impl Drop for WebSocketLink {
    fn drop(&mut self) {
        self.socket.set_onmessage(None);
        self.socket.set_onopen(None);
        self.socket.set_onclose(None);
        self.socket.set_onerror(None);
        let _ = self.socket.close();
    }
}
