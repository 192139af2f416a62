//! SonyMobile py-hprof's acceptance tests (test/accept/example_*.py) on example-java.hprof: field
//! values through shadowing, arrays, and instances by class.

mod common;

use common::*;
use heap::values::Value;
use heap::{ClassId, Heap, Node};

const DUMP: &str = "jvm/py-hprof__example-java.hprof";

fn h() -> std::sync::Arc<Heap> {
    heap(DUMP, None)
}

/// The value of `val` as py-hprof reads it through an object: the nearest declaration going up
/// from the object's class, instance field or static.
fn nearest_val(h: &Heap, n: Node) -> Option<Value> {
    let mut c = Some(h.index.class_of(n));
    while let Some(k) = c {
        let class = &h.index.classes[k.index()];
        if let Some(s) = class.statics.iter().find(|s| s.name == "val") {
            return Some(Value::from_raw(s.ty, s.raw));
        }
        // An instance field declared by this class: find its slot in the object's full layout.
        let layout = &h.index.class(n).fields;
        if let Some(i) = layout.iter().position(|g| g.name == "val" && g.declared_by == k) {
            return h.index.fields(n).get(i).map(|v| v.value);
        }
        c = class.super_class;
    }
    None
}

#[test]
fn one_heap_and_single_instances() {
    let h = h();
    assert_eq!(h.heap_totals().len(), 1);
    for name in ["com.example.Arrays", "com.example.Cars", "java.lang.String", "int[]", "int[][]", "char[]", "char[][]"]
    {
        class(&h, name);
    }
    single_instance(&h, "com.example.Arrays");
    single_instance(&h, "com.example.Cars");
}

/// example_shadowing.py: test_static_attr and test_instance_attr.
#[test]
fn shadowing() {
    let h = h();
    for (name, v) in [
        ("Base", 10),
        ("ShadowS", 13),
        ("ShadowIS", 11),
        ("ShadowSS", 12),
        ("ShadowI", 4),
        ("ShadowII", 5),
        ("ShadowSI", 6),
    ] {
        let n = single_instance(&h, &format!("com.example.{name}"));
        assert_eq!(nearest_val(&h, n), Some(Value::Int(v)), "{name}");
    }
    // ShadowII's record carries its own val (5) and the inherited ShadowI val (4), own class first.
    let ii = single_instance(&h, "com.example.ShadowII");
    let vals: Vec<Value> = h.index.fields(ii).into_iter().filter(|f| f.name == "val").map(|f| f.value).collect();
    assert_eq!(vals, [Value::Int(5), Value::Int(4)]);
}

fn ints(h: &Heap, n: Node) -> Vec<i64> {
    h.index.array_values(n).unwrap().into_iter().map(|v| v.as_i64().unwrap()).collect()
}

fn elems(h: &Heap, n: Node) -> Vec<Node> {
    h.index.array_values(n).unwrap().into_iter().map(|v| node(h, v.as_object().unwrap())).collect()
}

/// example_arrays.py.
#[test]
fn arrays() {
    let h = h();
    let a = single_instance(&h, "com.example.Arrays");
    assert_eq!(ints(&h, follow(&h, a, "i1")), [1, 2, 3]);
    let i2 = elems(&h, follow(&h, a, "i2"));
    assert_eq!(i2.len(), 2);
    assert_eq!(ints(&h, i2[0]), [10, 15]);
    assert_eq!(ints(&h, i2[1]), [13, 11]);
    let c1 = follow(&h, a, "c1");
    assert_eq!(h.index.string_value(c1).as_deref(), Some("hello"));
    let c2 = elems(&h, follow(&h, a, "c2"));
    assert_eq!(c2.len(), 2);
    assert_eq!(c2[0], c1);
    assert_eq!(h.index.string_value(c2[1]).as_deref(), Some("world"));
}

/// example_cars.py.
#[test]
fn cars() {
    let h = h();
    let cars = single_instance(&h, "com.example.Cars");
    let names = ["swe", "jap", "generic", "mine", "redYellow"];
    let v: Vec<Node> = names.iter().map(|f| follow(&h, cars, f)).collect();
    let vehicle = class(&h, "com.example.cars.Vehicle");
    let car = class(&h, "com.example.cars.Car");
    let limo = class(&h, "com.example.cars.Limo");
    let bike = class(&h, "com.example.cars.Bike");
    let all_of = |c: ClassId| -> Vec<Node> {
        let mut out: Vec<Node> = h
            .index
            .nodes()
            .filter(|&n| h.index.as_class(n).is_none() && h.is_subclass(h.index.class_of(n), c))
            .collect();
        out.sort();
        out
    };
    let mut sorted = v.clone();
    sorted.sort();
    assert_eq!(all_of(vehicle), sorted);
    let mut cars_set = vec![v[0], v[1], v[2]];
    cars_set.sort();
    assert_eq!(all_of(car), cars_set);
    assert!(h.instances_of(vehicle).is_empty());
    let mut own = h.instances_of(car);
    own.sort();
    let mut expect = vec![v[0], v[1]];
    expect.sort();
    assert_eq!(own, expect);
    let wheels: Vec<Option<Value>> = v.iter().map(|&n| h.index.field(n, "numWheels")).collect();
    assert_eq!(wheels, [4, 4, 4, 2, 2].map(|w| Some(Value::Int(w))));
    let makes: Vec<String> = v.iter().map(|&n| h.index.string_value(follow(&h, n, "make")).unwrap()).collect();
    assert_eq!(makes, ["Lolvo", "Toy Yoda", "Stretch", "Fånark", "Axes"]);
    assert_eq!(elems(&h, follow(&h, cars, "vehicles")), v);
    assert!(h.is_subclass(limo, car) && h.is_subclass(bike, vehicle) && !h.is_subclass(bike, car));
    assert!(!h.is_subclass(car, limo) && !h.is_subclass(vehicle, car) && h.is_subclass(car, car));
}
