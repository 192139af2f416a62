//! The diff between two dumps of one program, built by hand with the names a JVM gives: a
//! lambda's hidden class carries its address (`Shop$$Lambda$2+0x00007f69c8003b28`, as OpenJDK 17
//! on this machine writes `java.lang.invoke.LambdaForm$MH+0x00007f6e9c004000`), which differs
//! from one run to the next.

mod common;

use common::builder::{Builder, OBJ};
use heap::{Heap, Index, Options};

/// A dump holding `count` instances of the lambda class named `name`, each held by a static
/// array of `Shop.KEEP`.
fn dump(name: &str, count: u32) -> Heap {
    let mut b = Builder::new("1.0.2");
    b.string(0x900, "KEEP");
    b.class(0x100, "java.lang.Object", 0, &[]);
    b.class(0x110, "java.lang.Object[]", 0x100, &[]);
    b.class(0x200, name, 0x100, &[]);
    let elements: Vec<u32> = (0..count).map(|k| 0x1000 + 0x10 * k).collect();
    b.class_with_static(0x300, "com.example.Shop", 0x100, &[], 0x900, 0x800);
    b.object_array(0x800, 0x110, &elements);
    for &e in &elements {
        b.instance(e, 0x200, &[]);
    }
    b.root(0x300).root(0x100).root(0x110).root(0x200);
    let _ = OBJ;
    Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default())
}

#[test]
fn a_lambda_is_the_same_class_in_both_dumps() {
    let old = dump("com.example.Shop$$Lambda$2+0x00007f69c8003b28", 1);
    let new = dump("com.example.Shop$$Lambda$2+0x00007f26c8001000", 3);
    let deltas = heap::diff::class_deltas(&old, &new);
    let lambdas: Vec<_> = deltas.iter().filter(|d| d.class.contains("Lambda")).collect();
    assert_eq!(lambdas.len(), 1, "{deltas:?}");
    assert_eq!((lambdas[0].class.as_str(), lambdas[0].instances), ("com.example.Shop$$Lambda$2", (1, 3)));
    // The array holding them grew along one path, though the classes' addresses differ.
    let grown = heap::diff::growing_collections(&old, &new, 0);
    assert_eq!(grown.iter().map(|g| g.path.as_str()).collect::<Vec<_>>(), ["class com.example.Shop.KEEP"], "{grown:?}");
}

#[test]
fn stable_names_drop_only_addresses() {
    use heap::diff::stable_name;
    assert_eq!(stable_name("java.lang.invoke.LambdaForm$MH+0x00007f6e9c004000"), "java.lang.invoke.LambdaForm$MH");
    assert_eq!(stable_name("a.B$$Lambda$14/0x0000000800c03000"), "a.B$$Lambda$14");
    assert_eq!(stable_name("a.B$$Lambda$14.0x0000000800c03000[]"), "a.B$$Lambda$14[]");
    assert_eq!(stable_name("a.B+0xyz"), "a.B+0xyz");
    assert_eq!(stable_name("java.util.HashMap$Node"), "java.util.HashMap$Node");
}
