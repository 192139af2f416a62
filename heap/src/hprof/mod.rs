//! The HPROF format: constants, header, top-level records and heap sub-records.

pub mod cursor;
pub mod header;
// Record, field and variant names are the format's own (SPEC.md §5); documenting each again
// would only repeat the name.
#[allow(missing_docs)]
pub mod heap_record;
#[allow(missing_docs)]
pub mod record;

pub use crate::spec::BasicType;
pub use cursor::Cursor;
pub use header::{parse_header, Format, Header};
pub use heap_record::{read_sub_record, skip_sub_record, ClassDump, FieldDecl, RootKind, StaticField, SubRecord};
pub use record::{Record, Records, TopRecord};
