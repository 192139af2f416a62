//! Whether each object on a leak trace is leaking: YES, NO or UNKNOWN, and why. The rules come
//! from what the Android lifecycle says about each kind of object (a destroyed Activity is done;
//! the Application lives as long as the process; a class never goes away on its own).

use crate::analysis::Heap;
use crate::index::Node;
use crate::values::Value;

/// The verdict on one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Leaking {
    /// Leaking.
    Yes,
    /// Not leaking.
    No,
    /// Cannot tell.
    Unknown,
}

/// What the rules conclude about one object, with labels that help a person either way.
pub struct Verdict {
    /// The verdict.
    pub leaking: Leaking,
    /// Why (empty for UNKNOWN).
    pub why: String,
    /// Extra facts shown under the object (thread name, state fields).
    pub labels: Vec<String>,
}

fn simple_name(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

fn bool_field(heap: &Heap, n: Node, name: &str) -> Option<bool> {
    match heap.index.field(n, name)? {
        Value::Boolean(b) => Some(b),
        _ => None,
    }
}

fn is_instance_of(heap: &Heap, n: Node, class: &str) -> bool {
    let idx = &heap.index;
    if idx.as_class(n).is_some() {
        return false;
    }
    idx.classes_named(class).any(|c| heap.is_subclass(idx.class_of(n), c))
}

/// Follows `ContextWrapper.mBase` to the Activity, Service or Application behind a context.
pub fn unwrap_context(heap: &Heap, mut n: Node) -> Node {
    for _ in 0..16 {
        if ["android.app.Activity", "android.app.Service", "android.app.Application"]
            .iter()
            .any(|c| is_instance_of(heap, n, c))
        {
            return n;
        }
        match heap.index.field_node(n, "mBase") {
            Some(b) if is_instance_of(heap, n, "android.content.ContextWrapper") => n = b,
            _ => return n,
        }
    }
    n
}

fn destroyed_activity(heap: &Heap, n: Node) -> Option<bool> {
    let a = unwrap_context(heap, n);
    if !is_instance_of(heap, a, "android.app.Activity") {
        return None;
    }
    bool_field(heap, a, "mDestroyed")
}

/// The verdict on `n` by its own state.
pub fn inspect(heap: &Heap, n: Node) -> Verdict {
    let idx = &heap.index;
    let mut labels = Vec::new();
    let no = |why: &str, labels| Verdict { leaking: Leaking::No, why: why.to_string(), labels };
    let yes = |why: String, labels| Verdict { leaking: Leaking::Yes, why, labels };
    if idx.as_class(n).is_some() {
        return no("a class object never goes away on its own", labels);
    }
    let class = idx.class(n).name.clone();
    let simple = simple_name(&class).to_string();
    if is_instance_of(heap, n, "java.lang.Thread") {
        let name = idx.field_node(n, "name").and_then(|s| idx.string_value(s)).unwrap_or_default();
        labels.push(format!("Thread name: '{name}'"));
        if name == "main" {
            return no("the main thread runs as long as the process", labels);
        }
        return Verdict { leaking: Leaking::Unknown, why: String::new(), labels };
    }
    if is_instance_of(heap, n, "java.lang.ClassLoader") {
        return no("a class loader lives as long as the classes it defined", labels);
    }
    for singleton in
        ["android.app.Application", "android.app.ActivityThread", "android.view.inputmethod.InputMethodManager"]
    {
        if is_instance_of(heap, n, singleton) {
            return no(&format!("{} is a singleton of the process", simple_name(singleton)), labels);
        }
    }
    if is_instance_of(heap, n, "android.app.Activity") {
        return match bool_field(heap, n, "mDestroyed") {
            Some(true) => yes(format!("{simple}#mDestroyed is true"), labels),
            Some(false) => no(&format!("{simple}#mDestroyed is false"), labels),
            None => Verdict { leaking: Leaking::Unknown, why: String::new(), labels },
        };
    }
    for fragment in ["android.app.Fragment", "android.support.v4.app.Fragment", "androidx.fragment.app.Fragment"] {
        if is_instance_of(heap, n, fragment) {
            let detached = idx.field(n, "mFragmentManager") == Some(Value::Object(0));
            let called = bool_field(heap, n, "mCalled") == Some(true);
            return if detached && (called || fragment != "androidx.fragment.app.Fragment") {
                yes("Fragment#mFragmentManager is null".to_string(), labels)
            } else if !detached {
                no("Fragment#mFragmentManager is set", labels)
            } else {
                Verdict { leaking: Leaking::Unknown, why: String::new(), labels }
            };
        }
    }
    if is_instance_of(heap, n, "android.os.MessageQueue") {
        let quitting = bool_field(heap, n, "mQuitting").or_else(|| bool_field(heap, n, "mQuiting"));
        return match quitting {
            Some(true) => yes("MessageQueue#mQuitting is true".into(), labels),
            Some(false) => no("MessageQueue#mQuitting is false", labels),
            None => Verdict { leaking: Leaking::Unknown, why: String::new(), labels },
        };
    }
    if is_instance_of(heap, n, "android.view.Window") && bool_field(heap, n, "mDestroyed") == Some(true) {
        return yes("Window#mDestroyed is true".into(), labels);
    }
    if is_instance_of(heap, n, "android.view.ViewRootImpl") && idx.field(n, "mView") == Some(Value::Object(0)) {
        return yes("ViewRootImpl#mView is null".into(), labels);
    }
    if is_instance_of(heap, n, "android.view.View") {
        let attached = idx.field(n, "mAttachInfo").is_some_and(|v| v != Value::Object(0));
        labels.push(format!("View.mAttachInfo is {}", if attached { "set" } else { "null" }));
        if let Some(ctx) = idx.field_node(n, "mContext") {
            if destroyed_activity(heap, ctx) == Some(true) {
                return yes(format!("{simple}.mContext is a destroyed Activity (its mDestroyed is true)"), labels);
            }
        }
        if attached {
            return no(&format!("{simple}#mAttachInfo is set: the view is attached"), labels);
        }
        return Verdict { leaking: Leaking::Unknown, why: String::new(), labels };
    }
    if is_instance_of(heap, n, "android.content.ContextWrapper") && destroyed_activity(heap, n) == Some(true) {
        return yes(format!("{simple} wraps a destroyed Activity (its mDestroyed is true)"), labels);
    }
    if class == "java.lang.ThreadLocal$ThreadLocalMap$Entry" && idx.field(n, "referent") == Some(Value::Object(0)) {
        labels.push("stale: its ThreadLocal was collected".into());
    }
    Verdict { leaking: Leaking::Unknown, why: String::new(), labels }
}
