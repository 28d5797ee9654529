//! Crash test: a child process commits numbered transactions in a loop and is
//! killed (SIGKILL on Unix) at a random moment, 100 times. After each kill the
//! database must open, hold every transaction the child reported committed,
//! and show no partially written transaction.
//!
//! Each transaction `n` writes `a/n`, `b/n` and `meta/last = n`; so the stores
//! must always hold exactly keys `1..=last` in both `a` and `b`.
//! Set `TAOS_CRASH_SEED` to replay a run; the seed is printed.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use taos_storage::{
    Database, RedbBackend, RedbDatabase, StorageBackend, StorageError, Transaction,
    TransactionMode, block_on,
};

const DIR_ENV: &str = "TAOS_TEST_CRASH_DIR";
const KILLS: usize = 100;

fn open(dir: &Path) -> RedbDatabase {
    block_on(RedbBackend::new(dir).open("crash", 1, |up| {
        for store in ["a", "b", "meta"] {
            up.create_store(store)?;
        }
        Ok(())
    }))
    .unwrap()
}

fn payload(n: u64) -> Vec<u64> {
    (0..256)
        .map(|i| n.wrapping_mul(31).wrapping_add(i))
        .collect()
}

fn key(n: u64) -> String {
    format!("{n:010}")
}

/// Child side: commit transactions forever, reporting each after its commit returns.
#[test]
#[ignore = "helper process for sigkill_at_random_moments_loses_nothing"]
fn crash_child() {
    let Some(dir) = std::env::var_os(DIR_ENV) else {
        return;
    };
    let db = open(Path::new(&dir));
    let mut n = block_on(db.get::<u64>("meta", "last"))
        .unwrap()
        .unwrap_or(0);
    let mut out = std::io::stdout().lock();
    loop {
        n += 1;
        block_on(db.transaction(
            &["a", "b", "meta"],
            TransactionMode::ReadWrite,
            async |tx| {
                tx.put("a", &key(n), &payload(n)).await?;
                tx.put("b", &key(n), &payload(n)).await?;
                tx.put("meta", "last", &n).await?;
                Ok::<_, StorageError>(())
            },
        ))
        .unwrap();
        writeln!(out, "COMMITTED {n}").unwrap();
        out.flush().unwrap();
    }
}

/// The number in a complete `COMMITTED n` line of the child (the test
/// harness prints its own lines too).
fn committed(line: &str) -> Option<u64> {
    line.trim_end_matches('\n')
        .strip_prefix("COMMITTED ")?
        .parse()
        .ok()
}

/// xorshift64*: enough randomness for kill moments, reproducible from a seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn check(dir: &Path, reported: u64) -> u64 {
    let db = open(dir);
    block_on(
        db.transaction(&["a", "b", "meta"], TransactionMode::ReadOnly, async |tx| {
            let last = tx.get::<u64>("meta", "last").await?.unwrap_or(0);
            assert!(
                last >= reported,
                "child reported {reported} committed, database has {last}"
            );
            let a = tx.get_all::<Vec<u64>>("a").await?;
            let b = tx.get_all::<Vec<u64>>("b").await?;
            assert_eq!(a.len() as u64, last, "store a holds a partial transaction");
            assert_eq!(b.len() as u64, last, "store b holds a partial transaction");
            for (i, ((ka, va), (kb, vb))) in a.iter().zip(&b).enumerate() {
                let n = i as u64 + 1;
                assert_eq!((ka, kb), (&key(n), &key(n)), "keys out of step at {n}");
                assert_eq!(va, &payload(n), "record a/{n}");
                assert_eq!(vb, &payload(n), "record b/{n}");
            }
            Ok::<_, StorageError>(last)
        }),
    )
    .unwrap()
}

fn seed() -> u64 {
    std::env::var("TAOS_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        })
}

fn spawn_child(dir: &Path) -> std::process::Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "crash_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DIR_ENV, dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Kills land while the child creates the database file, so the first
/// `open` of a fresh directory must survive a kill too.
#[test]
fn sigkill_while_creating_the_database() {
    let seed = seed();
    println!("creation crash test seed: TAOS_CRASH_SEED={seed}");
    let mut rng = Rng(seed);
    for _ in 0..30 {
        let dir = tempfile::tempdir().unwrap();
        let mut child = spawn_child(dir.path());
        std::thread::sleep(Duration::from_micros(rng.below(15_000)));
        child.kill().unwrap();
        child.wait().unwrap();
        let reported = BufReader::new(child.stdout.take().unwrap())
            .lines()
            .filter_map(|line| committed(&line.unwrap()))
            .last()
            .unwrap_or(0);
        check(dir.path(), reported);
    }
}

#[test]
fn sigkill_at_random_moments_loses_nothing() {
    let seed = seed();
    println!("crash test seed: TAOS_CRASH_SEED={seed}");
    let mut rng = Rng(seed);
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let mut last = 0;
    for round in 1..=KILLS {
        let mut child = spawn_child(dir.path());
        let mut out = BufReader::new(child.stdout.take().unwrap());
        // Let it commit 0..6 transactions, then kill it after a random extra
        // delay, so the kill lands anywhere: during open, mid-commit, between.
        let wait_for = rng.below(7);
        let mut reported = last;
        let mut line = String::new();
        let mut seen = 0;
        while seen < wait_for {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                break;
            }
            if let Some(n) = committed(&line) {
                reported = n;
                seen += 1;
            }
        }
        std::thread::sleep(Duration::from_micros(rng.below(3_000)));
        child.kill().unwrap();
        child.wait().unwrap();
        // Lines written before the kill are still in the pipe.
        for line in out.lines() {
            if let Some(n) = committed(&line.unwrap()) {
                reported = n;
            }
        }
        last = check(dir.path(), reported);
        if round % 10 == 0 {
            println!(
                "{round}/{KILLS} kills, {last} transactions committed, {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    assert!(last > 0, "the child never committed anything");
}
