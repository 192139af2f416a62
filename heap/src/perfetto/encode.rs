//! An indexed dump written as a Perfetto trace with one Java heap graph, as ART's
//! `perfetto_hprof` would have written it for the same heap: what the test phone answers for
//! `perfetto` (its stand-in for ART), and the other half of the round trip the tests check.
//!
//! Each class is a type (its own reference fields named `Class.field`, its superclass, its
//! loader, its instance size); each class object an object of a type `java.lang.Class<Name>`
//! whose references are its static fields'; each object its shallow size (the engine's, under
//! the index's size model), its heap, and its references (instances' in field order, nulls
//! included, as ART writes them; arrays' and class objects' without field names). Of the values,
//! only those ART records ([`Recorded`]) are written.

use std::collections::HashMap;

use prost::Message;

use super::{proto, Recorded};
use crate::index::classes::ClassKind;
use crate::spec::BasicType;
use crate::values::Value;
use crate::{Index, Node};

/// `HeapGraphType.Kind` for a class.
fn kind_of(index: &Index, c: usize) -> i32 {
    let class = &index.classes[c];
    match (&class.kind, class.referent.map(|r| r.1)) {
        (ClassKind::Instance, Some(crate::index::classes::Strength::Soft)) => 8,
        (ClassKind::Instance, Some(crate::index::classes::Strength::Weak)) => 9,
        (ClassKind::Instance, Some(crate::index::classes::Strength::Finalizer)) => 10,
        (ClassKind::Instance, Some(crate::index::classes::Strength::Phantom)) => 11,
        (ClassKind::Instance, _) if class.name == "java.lang.String" => 3,
        (ClassKind::Instance, _) => 1,
        _ => 4,
    }
}

/// The trace's bytes for `index`'s heap, at `pid` and `timestamp`.
pub fn encode(index: &Index, pid: i32, timestamp: u64) -> Vec<u8> {
    // Every object's id and every reference's: the whole map, not a read of each record.
    index.id_map();
    let mut field_names: Vec<proto::InternedString> = Vec::new();
    let mut interned: HashMap<String, u64> = HashMap::new();
    let mut intern = |s: String| -> u64 {
        let next = interned.len() as u64 + 1;
        *interned.entry(s.clone()).or_insert_with(|| {
            field_names.push(proto::InternedString { iid: Some(next), str: Some(s.into_bytes()) });
            next
        })
    };
    let n_classes = index.classes.len() as u64;
    let mut types: Vec<proto::HeapGraphType> = Vec::with_capacity(index.classes.len() * 2);
    for (c, class) in index.classes.iter().enumerate() {
        let own: Vec<u64> = class
            .fields
            .iter()
            .take(class.own_fields)
            .filter(|f| f.ty == BasicType::Object)
            .map(|f| intern(format!("{}.{}", class.name, f.name)))
            .collect();
        types.push(proto::HeapGraphType {
            id: Some(c as u64 + 1),
            location_id: None,
            class_name: Some(class.name.clone()),
            object_size: Some(u64::from(class.declared_instance_size)),
            superclass_id: class.super_class.map(|s| s.0 as u64 + 1),
            reference_field_id: own,
            kind: Some(kind_of(index, c)),
            classloader_id: (class.loader != 0).then_some(class.loader),
        });
        // The type of its class object.
        types.push(proto::HeapGraphType {
            id: Some(n_classes + c as u64 + 1),
            class_name: Some(format!("java.lang.Class<{}>", class.name)),
            kind: Some(5),
            ..Default::default()
        });
    }
    let heap_type = |n: Node| match index.heaps.get(index.heap_of(n)).map(|h| h.name.as_str()) {
        Some("zygote") => 2,
        Some("image") => 3,
        _ => 1,
    };
    let mut objects = Vec::with_capacity(index.len());
    let mut current_heap = None;
    let class_objects: HashMap<Node, usize> =
        index.classes.iter().enumerate().filter_map(|(c, class)| Some((class.node?, c))).collect();
    for n in index.nodes() {
        let class_object = class_objects.get(&n).copied();
        let mut values = Vec::new();
        let (type_id, refs): (u64, Vec<u64>) = match class_object {
            Some(c) => (n_classes + c as u64 + 1, index.references(n).map(|t| index.id(t)).collect()),
            None => {
                let c = index.class_of(n).0 as u64;
                let refs = match index.kind(n) {
                    crate::ObjectKind::Instance => {
                        let fields = index.fields(n);
                        values = recorded(&index.class(n).name, &fields);
                        fields
                            .into_iter()
                            .filter_map(|f| match f.value {
                                Value::Object(id) if f.ty == BasicType::Object => Some(id),
                                _ => None,
                            })
                            .collect()
                    }
                    _ => index.references(n).map(|t| index.id(t)).collect(),
                };
                (c + 1, refs)
            }
        };
        let heap = heap_type(n);
        let mut object = proto::HeapGraphObject {
            id: Some(index.id(n)),
            type_id: Some(type_id),
            self_size: Some(index.shallow_size(n)),
            reference_object_id: refs,
            heap_type_delta: (current_heap != Some(heap)).then_some(heap),
            ..Default::default()
        };
        for (r, v) in values {
            match r {
                Recorded::NativeRegistrySize => object.native_allocation_registry_size_field = Some(v),
                Recorded::BitmapId => object.bitmap_id_field = Some(v),
                Recorded::BitmapSourceId => object.bitmap_source_id_field = Some(v),
                Recorded::BitmapWidth => object.bitmap_width_field = u32::try_from(v).ok(),
                Recorded::BitmapHeight => object.bitmap_height_field = u32::try_from(v).ok(),
                Recorded::VersionCode => object.application_info_long_version_code_field = Some(v),
            }
        }
        objects.push(object);
        current_heap = Some(heap);
    }
    let mut roots: HashMap<i32, Vec<u64>> = HashMap::new();
    for &(n, kind) in index.roots() {
        roots.entry(kind as i32).or_default().push(index.id(n));
    }
    let mut roots: Vec<proto::HeapGraphRoot> =
        roots.into_iter().map(|(kind, ids)| proto::HeapGraphRoot { object_ids: ids, root_type: Some(kind) }).collect();
    roots.sort_by_key(|r| r.root_type);
    let graph = proto::HeapGraph {
        pid: Some(pid),
        objects,
        roots,
        types,
        field_names,
        location_names: Vec::new(),
        continued: Some(false),
        index: Some(0),
    };
    proto::Trace {
        packet: vec![proto::TracePacket {
            timestamp: Some(timestamp),
            trusted_packet_sequence_id: Some(1),
            heap_graph: Some(graph),
            ..Default::default()
        }],
    }
    .encode_to_vec()
}

/// The values ART records for an instance of `class` with `fields` ([`Recorded`]): those of the
/// class the value belongs to, found by name.
fn recorded(class: &str, fields: &[crate::values::FieldValue]) -> Vec<(Recorded, i64)> {
    Recorded::ALL
        .into_iter()
        .filter_map(|r| {
            let (owner, name, _) = r.field();
            if owner != class {
                return None;
            }
            let v = fields.iter().find(|f| f.name == name)?.value.as_i64()?;
            Some((r, v))
        })
        .collect()
}
