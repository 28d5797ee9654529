//! The `crafty-server` binary as players and operators meet it: real
//! processes, real sockets on the loopback, a throwaway PostgreSQL. One
//! test binary for all of it, so CI links it once. Waits are on the wall
//! clock, with generous deadlines.

mod cli;
mod connections;
mod failover;
mod socket;
mod tls;
