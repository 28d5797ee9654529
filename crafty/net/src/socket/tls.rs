//! `wss://`: what a server shows ([`TlsIdentity`]: its certificate chain
//! and key, from PEM files) and what a client trusts ([`TlsTrust`]: the
//! public CAs of `webpki-roots`, plus CA certificates of its own from PEM
//! files, such as a LAN's self-signed CA). rustls on the `ring` provider.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ClientConfig, RootCertStore, ServerConfig};

/// The environment variable naming extra CA certificates a client trusts
/// for `wss://` (PEM files, separated by `:`, `;` on Windows), read by
/// [`TlsTrust::from_env`]: for a server whose certificate is self-signed
/// or from a private CA.
pub const CA_CERTS_ENV: &str = "CRAFTY_CA_CERTS";

/// Why a certificate, a key or a CA file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A certificate file is not PEM certificates, or one of them is not a
    /// certificate.
    #[error("the certificate in {} does not parse: {reason}", path.display())]
    Certificate {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A certificate file holds no certificate.
    #[error("{} holds no certificate (PEM, -----BEGIN CERTIFICATE-----)", path.display())]
    NoCertificate {
        /// The file.
        path: PathBuf,
    },
    /// A key file holds no private key rustls can use.
    #[error("the key in {} does not parse: {reason}", path.display())]
    Key {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The key is not the certificate's.
    #[error("the key in {} does not match the certificate in {}: {reason}", key.display(), cert.display())]
    Mismatch {
        /// The certificate file.
        cert: PathBuf,
        /// The key file.
        key: PathBuf,
        /// Why.
        reason: String,
    },
    /// rustls refused the configuration.
    #[error("TLS configuration: {0}")]
    Config(String),
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read {
        path: path.to_owned(),
        source,
    })
}

/// The certificates in the PEM file `path` (at least one).
fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let pem = read(path)?;
    let certs = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::Certificate {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
    if certs.is_empty() {
        return Err(TlsError::NoCertificate {
            path: path.to_owned(),
        });
    }
    for cert in &certs {
        rustls::server::ParsedCertificate::try_from(cert).map_err(|e| TlsError::Certificate {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
    }
    Ok(certs)
}

/// A server's certificate chain and private key: with one, it speaks
/// `wss://`.
#[derive(Debug, Clone)]
pub struct TlsIdentity {
    config: Arc<ServerConfig>,
}

impl TlsIdentity {
    /// Reads the certificate chain (PEM: the server's certificate first,
    /// then any intermediates, as in Let's Encrypt's `fullchain.pem`) and
    /// its private key (PEM: PKCS#8, PKCS#1 or SEC1, as in `privkey.pem`).
    ///
    /// # Errors
    /// A file cannot be read or does not parse, or the key is not the
    /// certificate's.
    pub fn from_pem_files(cert: &Path, key: &Path) -> Result<Self, TlsError> {
        let chain = certificates(cert)?;
        let key_pem = read(key)?;
        let key_der = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| TlsError::Key {
            path: key.to_owned(),
            reason: e.to_string(),
        })?;
        let provider = provider();
        let signing = provider
            .key_provider
            .load_private_key(key_der.clone_key())
            .map_err(|e| TlsError::Key {
                path: key.to_owned(),
                reason: e.to_string(),
            })?;
        let certified = rustls::sign::CertifiedKey::new(chain.clone(), signing);
        certified.keys_match().map_err(|e| TlsError::Mismatch {
            cert: cert.to_owned(),
            key: key.to_owned(),
            reason: e.to_string(),
        })?;
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Config(e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(chain, key_der)
            .map_err(|e| TlsError::Mismatch {
                cert: cert.to_owned(),
                key: key.to_owned(),
                reason: e.to_string(),
            })?;
        Ok(Self {
            config: Arc::new(config),
        })
    }

    pub(super) fn config(&self) -> &Arc<ServerConfig> {
        &self.config
    }
}

/// What a client trusts to verify a `wss://` server's certificate: the
/// public CAs (`webpki-roots`), plus any CA certificates added.
#[derive(Debug, Clone)]
pub struct TlsTrust {
    config: Arc<ClientConfig>,
}

impl TlsTrust {
    /// The public CAs only.
    ///
    /// # Errors
    /// None in practice (rustls refusing its own defaults).
    pub fn public() -> Result<Self, TlsError> {
        Self::with_ca_files(&[])
    }

    /// The public CAs and every certificate in the PEM files `ca_files`.
    ///
    /// # Errors
    /// A file cannot be read or does not parse.
    pub fn with_ca_files(ca_files: &[PathBuf]) -> Result<Self, TlsError> {
        let mut roots = RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        for path in ca_files {
            for cert in certificates(path)? {
                roots.add(cert).map_err(|e| TlsError::Certificate {
                    path: path.clone(),
                    reason: e.to_string(),
                })?;
            }
        }
        let config = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Config(e.to_string()))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Self {
            config: Arc::new(config),
        })
    }

    /// The public CAs and those in the files [`CA_CERTS_ENV`]
    /// (`CRAFTY_CA_CERTS`) names, separated by `:` (empty names skipped).
    ///
    /// # Errors
    /// A named file cannot be read or does not parse.
    pub fn from_env() -> Result<Self, TlsError> {
        let files: Vec<PathBuf> = std::env::var_os(CA_CERTS_ENV)
            .map(|list| std::env::split_paths(&list).collect())
            .unwrap_or_default();
        let files: Vec<PathBuf> = files
            .into_iter()
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        Self::with_ca_files(&files)
    }

    pub(super) fn config(&self) -> &Arc<ClientConfig> {
        &self.config
    }
}
