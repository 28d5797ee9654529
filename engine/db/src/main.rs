//! `taos-db`: list, back up, restore and edit Taos databases on disk.
//!
//! This crate is a command-line tool over [`taos_storage`]'s backup, restore,
//! export and import: it is not a library, and a game never links it. It is a
//! crate of its own so that a game depending on `taos_storage` does not compile
//! the tool's command line (`clap`), error reporting (`anyhow`) and logger
//! (`env_logger`). Run it with `cargo run -p taos_db -- ARGS`.
//!
//! ```text
//! taos-db [--dir DIR] databases                  list databases in the data directory
//! taos-db [--dir DIR] stores DB                  list a database's stores and record counts
//! taos-db [--dir DIR] keys DB STORE              list a store's keys and record versions
//! taos-db [--dir DIR] show DB STORE KEY          print one record as JSON
//! taos-db [--dir DIR] export DB STORE [FILE] [--force]
//!                                                write a store as JSON (to stdout without FILE;
//!                                                an existing FILE only with --force)
//! taos-db [--dir DIR] import DB STORE FILE [--create-stores]
//!                                                put every record of an export back, atomically
//!                                                (a missing database or store only with --create-stores)
//! taos-db [--dir DIR] delete DB STORE KEY        delete one record
//! taos-db [--dir DIR] backup DB FILE             write the whole database (every store, binary records too)
//! taos-db [--dir DIR] restore FILE [--as NAME]   recreate a backed-up database in the data directory
//! ```
//!
//! The data directory is `--dir`, else `$TAOS_DATA_DIR`, else the platform's
//! data directory plus `taos`. Files the tool writes (exports, backups) are
//! never a database file, and go to `FILE.partial` first, synced, then renamed.

#[cfg(not(target_arch = "wasm32"))]
mod files;
#[cfg(not(target_arch = "wasm32"))]
mod import_target;
#[cfg(not(target_arch = "wasm32"))]
mod restore;

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::path::{Path, PathBuf};

    use anyhow::{Context, Result, bail};
    use clap::{Parser, Subcommand};
    use serde::{Deserialize, Serialize};
    use taos_storage::{
        Database, RedbBackend, RedbDatabase, StorageBackend, Transaction, TransactionMode,
        backup_database, block_on, record_version,
    };

    use crate::files::{self, Existing};

    /// List, back up, restore and edit Taos databases on disk.
    #[derive(Debug, Parser)]
    #[command(
        name = "taos-db",
        after_help = "The data directory is --dir, else $TAOS_DATA_DIR, else the platform data dir + /taos."
    )]
    struct Cli {
        /// The data directory holding the databases.
        #[arg(long, value_name = "DIR", global = true)]
        dir: Option<PathBuf>,
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Debug, Subcommand)]
    enum Command {
        /// List databases in the data directory.
        Databases,
        /// List a database's stores and record counts.
        Stores { db: String },
        /// List a store's keys and record versions.
        Keys { db: String, store: String },
        /// Print one record as JSON.
        Show {
            db: String,
            store: String,
            key: String,
        },
        /// Write a store as JSON (to stdout without FILE).
        Export {
            db: String,
            store: String,
            file: Option<String>,
            /// Replace FILE if it exists (never a database file).
            #[arg(long)]
            force: bool,
        },
        /// Put every record of an export back, in one transaction.
        Import {
            db: String,
            store: String,
            file: String,
            /// Create the database or store if missing. Adding a store to an
            /// existing database raises its schema version by one, which a
            /// game expecting the old version refuses.
            #[arg(long)]
            create_stores: bool,
        },
        /// Delete one record.
        Delete {
            db: String,
            store: String,
            key: String,
        },
        /// Write the whole database to FILE: its schema version, every store,
        /// every record byte for byte (binary ones as base64). FILE is
        /// replaced atomically; a database file is refused.
        Backup { db: String, file: String },
        /// Recreate a backed-up database in the data directory (which must
        /// not hold that database already).
        Restore {
            file: String,
            /// Restore under this name instead of the backed-up one.
            #[arg(long = "as", value_name = "NAME")]
            name: Option<String>,
        },
    }

    const FORMAT: &str = "taos-store-export";

    /// One store, as written by `export` and read by `import`.
    #[derive(Serialize, Deserialize)]
    struct Export {
        format: String,
        database: String,
        store: String,
        records: Vec<ExportedRecord>,
    }

    #[derive(Serialize, Deserialize)]
    struct ExportedRecord {
        key: String,
        /// The stored envelope: `{"version": N, "data": ...}`.
        record: serde_json::Value,
    }

    pub(crate) fn main() -> Result<()> {
        let cli = Cli::parse();
        let backend = match cli.dir {
            Some(dir) => RedbBackend::new(dir),
            None => RedbBackend::from_env()?,
        };
        match &cli.command {
            Command::Databases => databases(&backend),
            Command::Stores { db } => stores(&backend, db),
            Command::Keys { db, store } => keys(&backend, db, store),
            Command::Show { db, store, key } => show(&backend, db, store, key),
            Command::Export {
                db,
                store,
                file,
                force,
            } => export(&backend, db, store, file.as_deref(), *force),
            Command::Import {
                db,
                store,
                file,
                create_stores,
            } => import(&backend, db, store, file, *create_stores),
            Command::Delete { db, store, key } => delete(&backend, db, store, key),
            Command::Backup { db, file } => backup(&backend, db, file),
            Command::Restore { file, name } => {
                crate::restore::restore(&backend, file, name.as_deref())
            }
        }
    }

    fn backup(backend: &RedbBackend, name: &str, file: &str) -> Result<()> {
        // Checked before the database is even opened.
        files::refuse_database_file(backend, Path::new(file))?;
        let db = open_existing(backend, name)?;
        let backup = block_on(backup_database(&db))?;
        let json = serde_json::to_string_pretty(&backup)? + "\n";
        drop(db);
        files::write_file(backend, Path::new(file), json.as_bytes(), Existing::Replace)?;
        eprintln!(
            "backed up {name} (schema version {}, {} stores, {} records) to {file}",
            backup.version,
            backup.stores.len(),
            backup.record_count()
        );
        Ok(())
    }

    /// Opens an existing database at whatever version it has.
    fn open_existing(backend: &RedbBackend, name: &str) -> Result<RedbDatabase> {
        let Some(version) = backend.existing_version(name)? else {
            bail!(
                "no database {name:?} in {} (see `taos-db databases`)",
                backend.dir().display()
            );
        };
        if version == 0 {
            // Opening at version 1 here would skip the game's own first upgrade.
            bail!(
                "database {name:?} has no schema yet (its first open never finished); nothing to show"
            );
        }
        Ok(block_on(backend.open(name, version, |_| Ok(())))?)
    }

    fn databases(backend: &RedbBackend) -> Result<()> {
        for name in backend.database_names()? {
            println!("{name}");
        }
        Ok(())
    }

    fn stores(backend: &RedbBackend, name: &str) -> Result<()> {
        let db = open_existing(backend, name)?;
        println!("# database {name}, schema version {}", db.version());
        for store in db.store_names() {
            let keys = block_on(db.transaction(
                &[&store],
                TransactionMode::ReadOnly,
                async |tx| tx.keys(&store).await,
            ))?;
            println!("{store}\t{} records", keys.len());
        }
        Ok(())
    }

    fn keys(backend: &RedbBackend, name: &str, store: &str) -> Result<()> {
        let db = open_existing(backend, name)?;
        let records = block_on(
            db.transaction(&[store], TransactionMode::ReadOnly, async |tx| {
                tx.get_all_raw(store).await
            }),
        )?;
        for (key, bytes) in records {
            match record_version(store, &key, &bytes) {
                Ok(version) => println!("{key}\tversion {version}\t{} bytes", bytes.len()),
                Err(e) => println!("{key}\tUNREADABLE ({e})\t{} bytes", bytes.len()),
            }
        }
        Ok(())
    }

    fn show(backend: &RedbBackend, name: &str, store: &str, key: &str) -> Result<()> {
        let db = open_existing(backend, name)?;
        let bytes = block_on(
            db.transaction(&[store], TransactionMode::ReadOnly, async |tx| {
                tx.get_raw(store, key).await
            }),
        )?;
        let Some(bytes) = bytes else {
            bail!("no record {key:?} in {name}/{store}");
        };
        let record: serde_json::Value = serde_json::from_slice(&bytes)
            .with_context(|| format!("record {key:?} in store {store:?} is not readable JSON"))?;
        println!("{}", serde_json::to_string_pretty(&record)?);
        Ok(())
    }

    fn export(
        backend: &RedbBackend,
        name: &str,
        store: &str,
        file: Option<&str>,
        force: bool,
    ) -> Result<()> {
        let existing = if force {
            Existing::Replace
        } else {
            Existing::Refuse {
                hint: "pass --force to replace it",
            }
        };
        if let Some(file) = file {
            // Refused before anything is read; checked again when written.
            files::refuse_database_file(backend, Path::new(file))?;
            if !force && std::fs::symlink_metadata(file).is_ok() {
                bail!("{file} already exists; nothing was written (pass --force to replace it)");
            }
        }
        let db = open_existing(backend, name)?;
        let raw = block_on(
            db.transaction(&[store], TransactionMode::ReadOnly, async |tx| {
                tx.get_all_raw(store).await
            }),
        )?;
        let mut records = Vec::with_capacity(raw.len());
        for (key, bytes) in raw {
            let record = serde_json::from_slice(&bytes).with_context(|| {
                format!("record {key:?} in store {store:?} is not readable JSON; export stopped")
            })?;
            records.push(ExportedRecord { key, record });
        }
        let export = Export {
            format: FORMAT.into(),
            database: name.into(),
            store: store.into(),
            records,
        };
        let json = serde_json::to_string_pretty(&export)?;
        match file {
            Some(file) => {
                drop(db);
                files::write_file(backend, Path::new(file), (json + "\n").as_bytes(), existing)?;
                eprintln!(
                    "exported {} records of {name}/{store} to {file}",
                    export.records.len()
                );
            }
            None => println!("{json}"),
        }
        Ok(())
    }

    fn import(
        backend: &RedbBackend,
        name: &str,
        store: &str,
        file: &str,
        create_stores: bool,
    ) -> Result<()> {
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        let export: Export = serde_json::from_str(&text)
            .with_context(|| format!("{file} is not a taos-db export"))?;
        if export.format != FORMAT {
            bail!(
                "{file} is not a taos-db export (format {:?})",
                export.format
            );
        }
        // Check every record before writing any.
        let mut records = Vec::with_capacity(export.records.len());
        for r in &export.records {
            let bytes = serde_json::to_vec(&r.record)?;
            record_version(store, &r.key, &bytes)
                .with_context(|| format!("{file}: record {:?} has no record envelope", r.key))?;
            records.push((r.key.as_str(), bytes));
        }
        let db = crate::import_target::open(backend, name, store, create_stores)?;
        block_on(
            db.transaction(&[store], TransactionMode::ReadWrite, async |tx| {
                for (key, bytes) in &records {
                    tx.put_raw(store, key, bytes).await?;
                }
                Ok::<_, taos_storage::StorageError>(())
            }),
        )?;
        eprintln!("imported {} records into {name}/{store}", records.len());
        Ok(())
    }

    fn delete(backend: &RedbBackend, name: &str, store: &str, key: &str) -> Result<()> {
        let db = open_existing(backend, name)?;
        let existed = block_on(
            db.transaction(&[store], TransactionMode::ReadWrite, async |tx| {
                let existed = tx.get_raw(store, key).await?.is_some();
                tx.delete(store, key).await?;
                Ok::<_, taos_storage::StorageError>(existed)
            }),
        )?;
        if !existed {
            bail!("no record {key:?} in {name}/{store}");
        }
        eprintln!("deleted {name}/{store}/{key}");
        Ok(())
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> anyhow::Result<()> {
    // Warnings (a skipped record, a torn write) go to stderr; RUST_LOG filters.
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp(None)
        .try_init();
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    // The browser has no files to manage; the tool is native only.
}
