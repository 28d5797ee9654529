//! Property test: any sequence of transactions (puts, deletes, clears over two
//! stores, each committed or aborted) leaves every backend holding exactly what
//! a plain in-memory model holds, and the redb file holds it after reopening.

use std::collections::BTreeMap;

use proptest::prelude::*;
use taos_storage::{
    Database, MemoryBackend, RedbBackend, StorageBackend, StorageError, Transaction,
    TransactionMode, block_on,
};

const STORES: [&str; 2] = ["worlds", "meta"];

#[derive(Debug, Clone)]
enum Op {
    Put(usize, String, u32),
    Delete(usize, String),
    Clear(usize),
}

fn op() -> impl Strategy<Value = Op> {
    let key = "[a-e]{1,2}";
    prop_oneof![
        6 => (0..2_usize, key, any::<u32>()).prop_map(|(s, k, v)| Op::Put(s, k, v)),
        3 => (0..2_usize, key).prop_map(|(s, k)| Op::Delete(s, k)),
        1 => (0..2_usize).prop_map(Op::Clear),
    ]
}

/// Transactions: their operations and whether they commit.
fn history() -> impl Strategy<Value = Vec<(Vec<Op>, bool)>> {
    prop::collection::vec(
        (prop::collection::vec(op(), 1..6), prop::bool::weighted(0.7)),
        1..12,
    )
}

/// A game's own error type: the transaction closure may return any error
/// that a `StorageError` converts into.
#[derive(Debug)]
enum Failed {
    RolledBackOnPurpose,
    #[allow(dead_code, reason = "only read through Debug when a test fails")]
    Storage(StorageError),
}

impl From<StorageError> for Failed {
    fn from(e: StorageError) -> Self {
        Self::Storage(e)
    }
}

type Model = [BTreeMap<String, u32>; 2];

fn apply(model: &mut Model, ops: &[Op]) {
    for op in ops {
        match op {
            Op::Put(s, k, v) => {
                model[*s].insert(k.clone(), *v);
            }
            Op::Delete(s, k) => {
                model[*s].remove(k);
            }
            Op::Clear(s) => model[*s].clear(),
        }
    }
}

fn contents<D: Database>(db: &D) -> Model {
    let read = |store| {
        block_on(db.get_all::<u32>(store))
            .unwrap()
            .into_iter()
            .collect::<BTreeMap<_, _>>()
    };
    [read(STORES[0]), read(STORES[1])]
}

fn run<B: StorageBackend>(backend: &B, history: &[(Vec<Op>, bool)]) -> (B::Database, Model) {
    let db = block_on(backend.open("prop", 1, |up| {
        for store in STORES {
            up.create_store(store)?;
        }
        Ok(())
    }))
    .unwrap();
    let mut model = Model::default();
    for (ops, commit) in history {
        let result: Result<(), Failed> =
            block_on(
                db.transaction(&STORES, TransactionMode::ReadWrite, async |tx| {
                    for op in ops {
                        match op {
                            Op::Put(s, k, v) => tx.put(STORES[*s], k, v).await?,
                            Op::Delete(s, k) => tx.delete(STORES[*s], k).await?,
                            Op::Clear(s) => tx.clear(STORES[*s]).await?,
                        }
                    }
                    if *commit {
                        Ok(())
                    } else {
                        Err(Failed::RolledBackOnPurpose)
                    }
                }),
            );
        match (&result, commit) {
            (Ok(()), true) | (Err(Failed::RolledBackOnPurpose), false) => {}
            _ => panic!("unexpected outcome {result:?}"),
        }
        if *commit {
            apply(&mut model, ops);
        }
        assert_eq!(contents(&db), model);
    }
    (db, model)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn memory_matches_the_model(history in history()) {
        run(&MemoryBackend::new(), &history);
    }

    #[test]
    fn redb_matches_the_model_and_after_reopen(history in history()) {
        let dir = tempfile::tempdir().unwrap();
        let backend = RedbBackend::new(dir.path());
        let (db, model) = run(&backend, &history);
        db.close();
        let db = block_on(backend.open("prop", 1, |_| Ok(()))).unwrap();
        prop_assert_eq!(contents(&db), model);
    }
}
