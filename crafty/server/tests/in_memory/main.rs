//! crafty's server in one process, on the in-memory network and the
//! manual clock (ticks, no sleeps): one test binary for all of it, so CI
//! links it once.

mod chunks;
mod harness;
mod rules;
mod saving;
mod security;
mod yard;
