//! The interactive UI: one model (`app`), messages, a keymap table, views that borrow the model.

pub mod app;
pub mod export;
pub mod keymap;
pub mod monitor;
pub mod run;
pub mod theme;
pub mod view;
