//! The interactive UI: one model (`model`), messages (`msg`) and `update`, a keymap table, and
//! views that borrow the model. Every module here depends only on modules below it:
//!
//! - `screen`, `cursor`, `line_edit`, `theme`: leaves.
//! - `monitor` (the watched process's state), `source` (what can be opened), `keymap`.
//! - `picker` (what is on offer, its filter), `model` (the state), `msg` (messages, effects),
//!   `jobs` (the work effects hand to other threads, turned into messages).
//! - `tree`, `histogram`, `threads`, `nav`: the model's operations (the dominator tree, the
//!   class rows, the threads' rows, moving and opening); `export` (the view as text and JSON, from plain data).
//! - `update`: messages and keys in, effects out. `view`: drawing. `run`: the loop and workers.

pub mod cursor;
mod diff;
pub mod export;
pub mod histogram;
mod jobs;
pub mod keymap;
pub mod line_edit;
pub mod model;
pub mod monitor;
pub mod msg;
pub mod nav;
pub mod picker;
mod prompt;
pub mod query;
pub mod run;
pub mod screen;
pub mod sets;
pub mod source;
pub mod theme;
mod threads;
mod tree;
mod update;
pub mod view;
