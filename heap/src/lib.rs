//! The heaptui engine: bytes of an HPROF heap dump in, answers out.
//!
//! ```no_run
//! use heap::{Heap, Options};
//! let heap = Heap::open("app.hprof".as_ref(), Options::default())?;
//! for n in heap.top_retained(5) {
//!     let class = &heap.index.class(n).name;
//!     println!("{class} retains {} bytes", heap.dominators.retained(n));
//! }
//! # Ok::<(), heap::Error>(())
//! ```
//!
//! Layers, each usable alone: [`hprof`] reads records as borrowed views of the mapped file;
//! [`index`] gives every object a dense node number with its class, heap, size and references;
//! [`dominators`] computes the dominator tree and retained sizes; [`paths`] finds shortest paths
//! from GC roots; [`analysis::Heap`] ties them together; [`report`] renders what tools print.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod alloc;
pub mod analysis;
pub mod bitmap;
mod bits;
pub mod by_class;
pub mod cache;
mod cut;
pub mod data;
pub mod diff;
pub mod dominators;
pub mod error;
pub mod expand;
pub mod fmt;
pub mod histogram;
pub mod hprof;
pub mod immediate;
pub mod index;
pub mod leaks;
pub mod merged;
pub mod paths;
pub mod perfetto;
mod prefetch;
pub mod proguard;
pub mod quick;
pub mod reachability;
pub mod report;
mod resident;
pub mod rewrite;
pub mod semantics;
pub(crate) mod slab;
pub mod spec;
pub mod strip;
#[cfg(test)]
mod testing;
pub mod threads;
mod trace;
pub mod values;

pub use analysis::{ClassStats, Heap};
pub use cache::Cache;
pub use error::{Error, ErrorKind, Limit, Result};
pub use index::classes::ClassId;
pub use index::sizes::SizeModel;
pub use index::{Index, Node, ObjectKind, Options, Phase};
pub use semantics::Semantics;
