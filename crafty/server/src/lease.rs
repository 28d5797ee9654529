//! Hosting a world from a shared database: several `crafty-server`
//! processes (on one machine or several) can serve worlds from one
//! database, and one of them hosts a given world at a time. The host
//! holds a **lease**, a record beside the world's meta record with its
//! [`HostId`], the address players reach it at, and a **beat** it counts
//! up every [`RENEW_EVERY`]. A server waiting to host watches the beat: if
//! it does not move for the lease timeout (by the waiting server's own
//! clock, so the machines' clocks need not agree), the host is gone and
//! the waiting server takes the lease in a transaction that checks the
//! beat is still the one it watched.
//!
//! Every save of the host checks, in its own transaction, that the lease
//! is still its own ([`StoreError::LeaseLost`] otherwise): on a database
//! with serializable transactions (PostgreSQL through
//! `taos_storage_postgres`), a host that was presumed dead and comes back
//! cannot write over the new host's world, and nothing it acknowledged
//! was acknowledged without being saved.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use taos_storage::{Database, Record, StorageError, Transaction, TransactionMode};

use crate::store::META;
use crate::{ServerStore, StoreError};

/// The lease's key in the world's meta store.
pub(crate) const LEASE_KEY: &str = "lease";

/// How often a host counts its beat up.
pub const RENEW_EVERY: Duration = Duration::from_secs(1);

/// How long a beat must stand still before a waiting server takes the
/// world over, by default.
pub const LEASE_TIMEOUT: Duration = Duration::from_secs(5);

/// One server process's identity (random, made at start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HostId(pub [u8; 16]);

impl HostId {
    /// A new random identity.
    #[must_use]
    pub fn new() -> Self {
        Self(crate::server::new_world_id().0)
    }
}

impl Default for HostId {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Display for HostId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0[..4].iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// Who hosts a world.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// The hosting server.
    pub holder: HostId,
    /// Where players reach it.
    pub address: String,
    /// Counted up by the host every [`RENEW_EVERY`].
    pub beat: u64,
}

impl Record for Lease {}

impl Lease {
    pub(crate) fn holder_name(&self) -> String {
        format!("{} at {}", self.holder, self.address)
    }
}

/// What [`ServerStore::claim`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// This server hosts the world now.
    Hosting,
    /// Another server does.
    HeldBy(Lease),
}

impl<D: Database> ServerStore<D> {
    /// Takes the lease for `me` (reached at `address`) if nobody holds it,
    /// if it is `me`'s, or if its beat is still `stale` (the beat a waiting
    /// server watched stand still); otherwise says who holds it.
    ///
    /// # Errors
    /// What the backend says (a conflict with another claim included).
    pub async fn claim(
        &self,
        me: HostId,
        address: &str,
        stale: Option<u64>,
    ) -> Result<Claim, StoreError> {
        let claim = self
            .db
            .transaction(&[META], TransactionMode::ReadWrite, async |tx| {
                let lease: Option<Lease> = tx.get(META, LEASE_KEY).await?;
                let beat = match lease {
                    Some(lease) if lease.holder != me && Some(lease.beat) != stale => {
                        return Ok::<Claim, StorageError>(Claim::HeldBy(lease));
                    }
                    Some(lease) => lease.beat + 1,
                    None => 0,
                };
                let lease = Lease {
                    holder: me,
                    address: address.to_owned(),
                    beat,
                };
                tx.put(META, LEASE_KEY, &lease).await?;
                Ok(Claim::Hosting)
            })
            .await?;
        if claim == Claim::Hosting {
            *self.host_slot() = Some(me);
        }
        Ok(claim)
    }

    /// Counts the host's beat up.
    ///
    /// # Errors
    /// [`StoreError::LeaseLost`] when another server holds the lease now
    /// (this one must stop serving), or the backend's error.
    pub async fn renew(&self) -> Result<(), StoreError> {
        let Some(me) = *self.host_slot() else {
            return Ok(());
        };
        let lost = self
            .db
            .transaction(&[META], TransactionMode::ReadWrite, async |tx| {
                let lease: Option<Lease> = tx.get(META, LEASE_KEY).await?;
                match lease {
                    Some(mut lease) if lease.holder == me => {
                        lease.beat += 1;
                        tx.put(META, LEASE_KEY, &lease).await?;
                        Ok::<Option<String>, StorageError>(None)
                    }
                    Some(lease) => Ok(Some(lease.holder_name())),
                    None => Ok(Some("nobody (the lease was released)".to_owned())),
                }
            })
            .await?;
        match lost {
            None => Ok(()),
            Some(holder) => {
                *self.host_slot() = None;
                Err(StoreError::LeaseLost { holder })
            }
        }
    }

    /// Gives the lease up (a clean shutdown), so a waiting server takes
    /// the world at once.
    ///
    /// # Errors
    /// What the backend says.
    pub async fn release(&self) -> Result<(), StoreError> {
        let Some(me) = self.host_slot().take() else {
            return Ok(());
        };
        self.db
            .transaction(&[META], TransactionMode::ReadWrite, async |tx| {
                let lease: Option<Lease> = tx.get(META, LEASE_KEY).await?;
                if lease.is_some_and(|l| l.holder == me) {
                    tx.delete(META, LEASE_KEY).await?;
                }
                Ok::<(), StorageError>(())
            })
            .await?;
        Ok(())
    }

    /// Whether this server hosts the world under a lease it must renew.
    #[must_use]
    pub fn hosts_under_lease(&self) -> bool {
        self.host_slot().is_some()
    }

    /// Who hosts the world, if anyone.
    ///
    /// # Errors
    /// What the backend says.
    pub async fn lease(&self) -> Result<Option<Lease>, StoreError> {
        Ok(self.db.get(META, LEASE_KEY).await?)
    }

    fn host_slot(&self) -> std::sync::MutexGuard<'_, Option<HostId>> {
        self.hosting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Waits until `me` hosts the world in `store`: takes the lease at once
/// when it is free, or once its beat has stood still for `timeout` (the
/// host died); checks every `poll`. Returns `false` if `stop` says so
/// first. Conflicts with another waiting server are retried.
///
/// # Errors
/// What the backend says, other than a conflict.
pub fn wait_to_host<D: Database>(
    store: &ServerStore<D>,
    me: HostId,
    address: &str,
    timeout: Duration,
    poll: Duration,
    stop: impl Fn() -> bool,
) -> Result<bool, StoreError> {
    let mut watched: Option<(u64, Instant)> = None;
    let mut announced = false;
    loop {
        if stop() {
            return Ok(false);
        }
        let stale = watched
            .filter(|(_, since)| since.elapsed() >= timeout)
            .map(|(beat, _)| beat);
        match taos_storage::block_on(store.claim(me, address, stale)) {
            Ok(Claim::Hosting) => return Ok(true),
            Ok(Claim::HeldBy(lease)) => {
                if !announced {
                    log::info!(
                        "the world is hosted by {}: standing by to take it over",
                        lease.holder_name()
                    );
                    announced = true;
                }
                if watched.is_none_or(|(beat, _)| beat != lease.beat) {
                    watched = Some((lease.beat, Instant::now()));
                }
            }
            // Another waiting server claimed at the same moment: look again.
            Err(StoreError::Storage(error)) if error.is_conflict() => {}
            Err(error) => return Err(error),
        }
        std::thread::sleep(poll);
    }
}
