//! Record tags, sub-record tags and basic types, as the readers in [`crate::hprof`] name them.
//! Defined once, apart from every reader, in [`crate::spec`].

pub use crate::spec::{record, record_name, sub, sub_record_name, BasicType};
