//! The interactive UI: one model (`model`), messages (`msg`) and `update`, a keymap table, and
//! views that borrow the model.

pub mod cursor;
pub mod export;
pub mod histogram;
pub mod keymap;
pub mod line_edit;
pub mod model;
pub mod monitor;
pub mod msg;
mod nav;
pub mod picker;
pub mod run;
pub mod screen;
pub mod source;
pub mod theme;
mod tree;
mod update;
pub mod view;
