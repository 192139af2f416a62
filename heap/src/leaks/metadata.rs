//! What the dump says about the device and the app: Android build fields, the process name,
//! LeakCanary's version, and counts.

use std::collections::BTreeMap;

use crate::analysis::Heap;
pub use crate::paths::policy::device;
use crate::values::Value;

/// Facts read from the dump.
#[derive(Debug, Clone, Default)]
pub struct Metadata {
    /// `Build.VERSION.SDK_INT`.
    pub sdk_int: Option<u32>,
    /// `Build.MANUFACTURER`.
    pub manufacturer: Option<String>,
    /// Every fact as `key: value`, in report order.
    pub entries: BTreeMap<String, String>,
}

fn static_string(heap: &Heap, class: &str, field: &str) -> Option<String> {
    heap.index.static_string(class, field)
}

fn static_int(heap: &Heap, class: &str, field: &str) -> Option<i64> {
    heap.index.static_int(class, field)
}

/// Reads the facts.
pub fn extract(heap: &Heap) -> Metadata {
    let idx = &heap.index;
    let mut m = Metadata::default();
    let sdk = static_int(heap, "android.os.Build$VERSION", "SDK_INT");
    m.sdk_int = sdk.and_then(|v| u32::try_from(v).ok());
    m.manufacturer = static_string(heap, "android.os.Build", "MANUFACTURER");
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            m.entries.insert(k.to_string(), v);
        }
    };
    put("Build.VERSION.SDK_INT", sdk.map(|v| v.to_string()));
    put("Build.VERSION.RELEASE", static_string(heap, "android.os.Build$VERSION", "RELEASE"));
    put("Build.MANUFACTURER", static_string(heap, "android.os.Build", "MANUFACTURER"));
    put("Build.MODEL", static_string(heap, "android.os.Build", "MODEL"));
    put("Build.BRAND", static_string(heap, "android.os.Build", "BRAND"));
    put("Build.FINGERPRINT", static_string(heap, "android.os.Build", "FINGERPRINT"));
    put("LeakCanary version", static_string(heap, "leakcanary.internal.InternalLeakCanary", "version"));
    put("App process name", process_name(heap));
    let s = heap.summary();
    put("Class count", Some(s.classes.to_string()));
    put("Instance count", Some((s.instances - s.object_arrays - s.primitive_arrays).to_string()));
    put("Object array count", Some(s.object_arrays.to_string()));
    put("Primitive array count", Some(s.primitive_arrays.to_string()));
    let threads: std::collections::HashSet<_> =
        idx.roots().iter().filter(|(_, k)| *k == crate::hprof::RootKind::ThreadObject).map(|(n, _)| *n).collect();
    put("Thread count", Some(threads.len().to_string()));
    put("Heap total bytes", Some(s.shallow_bytes.to_string()));
    m
}

/// `ActivityThread.sCurrentActivityThread.mBoundApplication.processName` (or its appInfo's).
fn process_name(heap: &Heap) -> Option<String> {
    let idx = &heap.index;
    let c = idx.classes_named("android.app.ActivityThread").next()?;
    let at = idx.node(idx.static_value(c, "sCurrentActivityThread")?.as_object()?)?;
    let bound = idx.field_node(at, "mBoundApplication")?;
    if let Some(s) = idx.field_node(bound, "processName").and_then(|s| idx.string_value(s)) {
        return Some(s);
    }
    let info = idx.field_node(bound, "appInfo")?;
    let name = idx.field(info, "processName").and_then(Value::as_object).and_then(|id| idx.node(id))?;
    idx.string_value(name)
}
