//! Transports. The server and clients send and receive whole messages
//! through a [`Link`]; a socket transport implements it for real networks,
//! and [`MemoryNet`] connects ends in one process through a seeded link
//! conditioner: every message is delayed by a latency plus a random
//! jitter (so messages overtake each other, as on the internet), and lost
//! with a probability, all on a clock the caller advances. The same seed
//! and the same sends give the same deliveries.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The link was closed (by either end): nothing more can be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the link is closed")]
pub struct LinkClosed;

/// One end of a message transport.
pub trait Link {
    /// Sends one message (it may be lost or delayed, as the network has it).
    ///
    /// # Errors
    /// [`LinkClosed`] once either end closed the link.
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed>;

    /// The next message that has arrived, if any.
    fn receive(&mut self) -> Option<Vec<u8>>;

    /// Closes the link for both ends (what has arrived can still be
    /// received).
    fn close(&mut self);

    /// Whether the link was closed.
    fn is_closed(&self) -> bool;

    /// Why the link closed, when it knows better than "closed" (a
    /// connection that could not be made says what failed).
    fn close_reason(&self) -> Option<String> {
        None
    }
}

/// A boxed link is a link (a client that picks its transport at run time
/// holds a `Box<dyn Link>`).
impl<L: Link + ?Sized> Link for Box<L> {
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed> {
        (**self).send(message)
    }

    fn receive(&mut self) -> Option<Vec<u8>> {
        (**self).receive()
    }

    fn close(&mut self) {
        (**self).close();
    }

    fn is_closed(&self) -> bool {
        (**self).is_closed()
    }

    fn close_reason(&self) -> Option<String> {
        (**self).close_reason()
    }
}

/// How a [`MemoryNet`] treats messages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditions {
    /// Every message's delay.
    pub latency: Duration,
    /// Up to this much more delay, uniformly at random (reorders messages).
    pub jitter: Duration,
    /// The chance a message is lost, 0 to 1.
    pub loss: f64,
}

impl Conditions {
    /// Instant delivery, nothing lost.
    pub const PERFECT: Self = Self {
        latency: Duration::ZERO,
        jitter: Duration::ZERO,
        loss: 0.0,
    };

    /// A one-way `latency` with up to `jitter` more, losing `loss` of the
    /// messages.
    #[must_use]
    pub fn new(latency: Duration, jitter: Duration, loss: f64) -> Self {
        Self {
            latency,
            jitter,
            loss: if loss.is_finite() {
                loss.clamp(0.0, 1.0)
            } else {
                0.0
            },
        }
    }
}

/// A message on its way: when it arrives, and the order it was sent in (to
/// break ties).
#[derive(Debug)]
struct InFlight {
    arrives: Duration,
    sent: u64,
    bytes: Vec<u8>,
}

#[derive(Debug, Default)]
struct Pipe {
    queue: Vec<InFlight>,
    bytes_sent: u64,
    bytes_delivered: u64,
    lost: u64,
}

#[derive(Debug)]
struct Net {
    now: Duration,
    rng: u64,
    conditions: Conditions,
    sends: u64,
    /// Two pipes per connection: `2k` from its first end, `2k + 1` from its
    /// second.
    pipes: Vec<Pipe>,
    closed: Vec<bool>,
}

impl Net {
    /// splitmix64: small, seeded, the same everywhere.
    fn random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.random() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// An in-memory network: ends connected by [`connect`](Self::connect),
/// messages delayed and lost as its [`Conditions`] say, time advanced by
/// [`advance`](Self::advance). Cheap to clone (the clones are the same
/// network).
#[derive(Debug, Clone)]
pub struct MemoryNet {
    net: Arc<Mutex<Net>>,
}

impl MemoryNet {
    /// A network under `conditions`, its randomness from `seed`.
    #[must_use]
    pub fn new(conditions: Conditions, seed: u64) -> Self {
        Self {
            net: Arc::new(Mutex::new(Net {
                now: Duration::ZERO,
                rng: seed,
                conditions,
                sends: 0,
                pipes: Vec::new(),
                closed: Vec::new(),
            })),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Net> {
        self.net.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new connection: its two ends (a client's and the server's, say).
    #[must_use]
    pub fn connect(&self) -> (MemoryLink, MemoryLink) {
        let mut net = self.lock();
        let first = net.pipes.len();
        net.pipes.push(Pipe::default());
        net.pipes.push(Pipe::default());
        let connection = net.closed.len();
        net.closed.push(false);
        let end = |outgoing: usize, incoming: usize| MemoryLink {
            net: self.clone(),
            outgoing,
            incoming,
            connection,
        };
        (end(first, first + 1), end(first + 1, first))
    }

    /// Moves the network's clock on by `dt`.
    pub fn advance(&self, dt: Duration) {
        let mut net = self.lock();
        net.now += dt;
    }

    /// The network's clock.
    #[must_use]
    pub fn now(&self) -> Duration {
        self.lock().now
    }

    /// Changes the conditions for messages sent from now on.
    pub fn set_conditions(&self, conditions: Conditions) {
        self.lock().conditions = conditions;
    }
}

/// One end of a [`MemoryNet`] connection.
#[derive(Debug)]
pub struct MemoryLink {
    net: MemoryNet,
    outgoing: usize,
    incoming: usize,
    connection: usize,
}

impl MemoryLink {
    /// Bytes this end has sent (lost ones included).
    #[must_use]
    pub fn bytes_sent(&self) -> u64 {
        self.net.lock().pipes[self.outgoing].bytes_sent
    }

    /// Bytes this end has received.
    #[must_use]
    pub fn bytes_received(&self) -> u64 {
        self.net.lock().pipes[self.incoming].bytes_delivered
    }

    /// Messages from this end the network lost.
    #[must_use]
    pub fn lost(&self) -> u64 {
        self.net.lock().pipes[self.outgoing].lost
    }
}

impl Link for MemoryLink {
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed> {
        let mut net = self.net.lock();
        if net.closed[self.connection] {
            return Err(LinkClosed);
        }
        let conditions = net.conditions;
        net.pipes[self.outgoing].bytes_sent += message.len() as u64;
        if net.unit() < conditions.loss {
            net.pipes[self.outgoing].lost += 1;
            return Ok(());
        }
        let jitter = conditions.jitter.mul_f64(net.unit());
        let arrives = net.now + conditions.latency + jitter;
        net.sends += 1;
        let sent = net.sends;
        net.pipes[self.outgoing].queue.push(InFlight {
            arrives,
            sent,
            bytes: message,
        });
        Ok(())
    }

    fn receive(&mut self) -> Option<Vec<u8>> {
        let mut net = self.net.lock();
        let now = net.now;
        let queue = &mut net.pipes[self.incoming].queue;
        let next = queue
            .iter()
            .enumerate()
            .filter(|(_, m)| m.arrives <= now)
            .min_by_key(|(_, m)| (m.arrives, m.sent))
            .map(|(i, _)| i)?;
        let bytes = queue.swap_remove(next).bytes;
        net.pipes[self.incoming].bytes_delivered += bytes.len() as u64;
        Some(bytes)
    }

    fn close(&mut self) {
        let mut net = self.net.lock();
        net.closed[self.connection] = true;
    }

    fn is_closed(&self) -> bool {
        self.net.lock().closed[self.connection]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn received(link: &mut MemoryLink) -> Vec<Vec<u8>> {
        std::iter::from_fn(|| link.receive()).collect()
    }

    #[test]
    fn messages_arrive_after_the_latency_in_order_without_jitter() {
        let net = MemoryNet::new(Conditions::new(50 * MS, Duration::ZERO, 0.0), 1);
        let (mut client, mut server) = net.connect();
        for i in 0..5u8 {
            client.send(vec![i]).unwrap();
        }
        net.advance(49 * MS);
        assert!(server.receive().is_none(), "not yet");
        net.advance(MS);
        assert_eq!(
            received(&mut server),
            (0..5u8).map(|i| vec![i]).collect::<Vec<_>>()
        );
        assert!(client.receive().is_none(), "nothing came back");
        assert_eq!(client.bytes_sent(), 5);
        assert_eq!(server.bytes_received(), 5);
    }

    #[test]
    fn jitter_reorders_loss_drops_and_a_seed_repeats_it() {
        let run = |seed| {
            let net = MemoryNet::new(Conditions::new(100 * MS, 80 * MS, 0.05), seed);
            let (mut client, mut server) = net.connect();
            for i in 0..2_000u16 {
                client.send(i.to_le_bytes().to_vec()).unwrap();
                net.advance(MS);
            }
            net.advance(Duration::from_secs(1));
            let order: Vec<u16> = received(&mut server)
                .into_iter()
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect();
            (order, client.lost())
        };
        let (order, lost) = run(7);
        assert_eq!(order.len() as u64 + lost, 2_000);
        assert!((50..=150).contains(&lost), "about 5% lost: {lost}");
        assert!(
            order.windows(2).any(|w| w[1] < w[0]),
            "some overtook others"
        );
        assert_eq!(run(7), (order, lost), "the same seed, the same network");
        assert_ne!(run(8).0, run(7).0);
    }

    #[test]
    fn closing_stops_sending_both_ways() {
        let net = MemoryNet::new(Conditions::PERFECT, 1);
        let (mut client, mut server) = net.connect();
        client.send(vec![1]).unwrap();
        server.close();
        assert!(client.is_closed());
        assert_eq!(client.send(vec![2]), Err(LinkClosed));
        assert_eq!(server.receive(), Some(vec![1]), "what arrived is kept");
    }
}
