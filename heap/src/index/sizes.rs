//! Shallow size models: how many bytes an object takes, as each peer computes it.
//!
//! A dump does not state object sizes; each tool derives them. We follow three peers exactly:
//!
//! | model | peer | instance | array | class object |
//! |---|---|---|---|---|
//! | `android` | ahat (and perflib: same arithmetic) | CLASS DUMP instance size (ART writes the real size, header included) | `length × element size` (references: id size), no header | `java.lang.Class` instance size + Σ static sizes |
//! | `hotspot` | VisualVM 2.1.5+ (`jfluid-heap`) | `align8(header + Σ fields)`, header = id + ref | `align8(header + 4 + length × element)` | `java.lang.Class` instance size, statics not counted |
//! | `mat` | Eclipse MAT | `alignUp(rec(C), align)`, `rec` aligned to the ref size at each class level | `alignUp(alignUp(id + ref + 4, ref) + length × element, align)`; object arrays `alignUp(id + ref + 4 + length × ref, align)` | `alignUp(Σ statics, align)` |
//!
//! References are 4 bytes in 4-byte-id dumps. In 8-byte-id dumps they are 4 bytes when the JVM
//! used compressed oops, which each peer detects its own way (see [`detect_ref_size_visualvm`] and
//! [`detect_ref_size_mat`]).

use super::classes::{Class, ClassKind};
use crate::hprof::BasicType;

/// A named shallow-size model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SizeModel {
    /// ahat's (Android Studio's) arithmetic.
    Android,
    /// VisualVM's real-layout arithmetic for HotSpot.
    Hotspot,
    /// Eclipse MAT's arithmetic.
    Mat,
}

impl SizeModel {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            SizeModel::Android => "android",
            SizeModel::Hotspot => "hotspot",
            SizeModel::Mat => "mat",
        }
    }

    /// Parses `android`, `hotspot` or `mat`.
    pub fn parse(s: &str) -> Option<SizeModel> {
        match s {
            "android" => Some(SizeModel::Android),
            "hotspot" => Some(SizeModel::Hotspot),
            "mat" => Some(SizeModel::Mat),
            _ => None,
        }
    }
}

fn align(n: u64, to: u64) -> u64 {
    if to <= 1 {
        n
    } else {
        n.div_ceil(to) * to
    }
}

/// Layout parameters of one dump under one model.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
pub struct Sizer {
    /// The model.
    pub model: SizeModel,
    /// Identifier size of the dump.
    pub id_size: u32,
    /// Size of a reference field in the VM (4 with compressed oops).
    pub ref_size: u32,
    /// Object alignment (8 except where MAT measured otherwise).
    pub align: u64,
}

impl Sizer {
    fn elem(&self, ty: BasicType) -> u64 {
        match ty {
            BasicType::Object => u64::from(self.ref_size),
            t => u64::from(t.size(self.id_size)),
        }
    }

    /// Per-instance size of every class, indexed like `classes`.
    pub fn instance_sizes(&self, classes: &[Class]) -> Vec<u64> {
        let mut out = vec![u64::MAX; classes.len()];
        for i in 0..classes.len() {
            self.instance_size_of(classes, i, &mut out, 0);
        }
        out
    }

    fn instance_size_of(&self, classes: &[Class], i: usize, memo: &mut [u64], depth: u32) -> u64 {
        if memo[i] != u64::MAX {
            return memo[i];
        }
        let c = &classes[i];
        let header = u64::from(self.id_size + self.ref_size);
        let size = match self.model {
            SizeModel::Android => u64::from(c.declared_instance_size),
            SizeModel::Hotspot => {
                // VisualVM sums the whole hierarchy's fields, then aligns once.
                let fields: u64 = c.fields.iter().map(|f| self.elem(f.ty)).sum();
                align(header + fields, 8)
            }
            SizeModel::Mat => align(self.mat_unaligned(classes, i, depth), self.align),
        };
        memo[i] = size;
        size
    }

    /// MAT's record size: the superclass's, plus own fields, aligned to the reference size.
    fn mat_unaligned(&self, classes: &[Class], i: usize, depth: u32) -> u64 {
        let c = &classes[i];
        let own: u64 = c.fields.iter().take(c.own_fields).map(|f| self.elem(f.ty)).sum();
        let base = match c.super_class {
            Some(s) if depth < 256 && s.index() < classes.len() => self.mat_unaligned(classes, s.index(), depth + 1),
            _ => u64::from(self.id_size + self.ref_size),
        };
        align(own + base, u64::from(self.ref_size))
    }

    /// Size of an array of `len` elements of `elem` (`Object` for object arrays).
    pub fn array_size(&self, elem: BasicType, len: u32) -> u64 {
        let len = u64::from(len);
        match self.model {
            SizeModel::Android => {
                if elem == BasicType::Object {
                    len * u64::from(self.id_size)
                } else {
                    len * self.elem(elem)
                }
            }
            SizeModel::Hotspot => align(u64::from(self.id_size + self.ref_size) + 4 + len * self.elem(elem), 8),
            SizeModel::Mat => {
                let header = u64::from(self.id_size + self.ref_size) + 4;
                if elem == BasicType::Object {
                    align(header + len * u64::from(self.ref_size), self.align)
                } else {
                    align(align(header, u64::from(self.ref_size)) + len * self.elem(elem), self.align)
                }
            }
        }
    }

    /// Size of the class object of `c`; `class_instance` is the instance size of `java.lang.Class`
    /// under this model (0 when the dump has no such class).
    pub fn class_object_size(&self, c: &Class, class_instance: u64, declared_class_instance: u64) -> u64 {
        match self.model {
            SizeModel::Android => {
                declared_class_instance + c.statics.iter().map(|s| u64::from(s.ty.size(self.id_size))).sum::<u64>()
            }
            SizeModel::Hotspot => class_instance,
            SizeModel::Mat => align(c.statics.iter().map(|s| self.elem(s.ty)).sum(), self.align),
        }
    }

    /// The element type of arrays of class `c`, if it is an array class.
    pub fn array_elem(c: &Class) -> Option<BasicType> {
        match c.kind {
            ClassKind::Instance => None,
            ClassKind::ObjectArray => Some(BasicType::Object),
            ClassKind::PrimitiveArray(t) => Some(t),
        }
    }
}

/// VisualVM's compressed-oops test for 8-byte-id dumps: the distance between two static `long`
/// field offsets that the JDK stores for adjacent reference fields (`Class$Atomic`,
/// `FutureTask`). Returns 4 or 8 when one of them answers.
pub fn detect_ref_size_visualvm(classes: &[Class]) -> Option<u32> {
    let probes = [
        ("java.lang.Class$Atomic", "annotationTypeOffset", "annotationDataOffset"),
        ("java.util.concurrent.FutureTask", "waitersOffset", "runnerOffset"),
    ];
    for (class, a, b) in probes {
        let Some(c) = classes.iter().find(|c| c.name == class) else { continue };
        let get = |n: &str| c.statics.iter().find(|s| s.name == n && s.ty == BasicType::Long).map(|s| s.raw as i64);
        if let (Some(x), Some(y)) = (get(a), get(b)) {
            let d = x.wrapping_sub(y);
            if d == 4 || d == 8 {
                return Some(d as u32);
            }
        }
    }
    None
}

/// MAT's compressed-oops test: in an 8-byte-id dump, an object array that starts before the
/// previous one (in file order) would end if references were 8 bytes proves they are 4.
///
/// `arrays` holds `(address, length)` of object arrays in file order.
pub fn detect_ref_size_mat(arrays: impl Iterator<Item = (u64, u32)>) -> bool {
    let mut prev: Option<(u64, u32)> = None;
    for (addr, len) in arrays {
        if let Some((p, plen)) = prev {
            let end = p.saturating_add(16).saturating_add(u64::from(plen) * 8);
            if addr > p && addr < end {
                return true;
            }
        }
        prev = Some((addr, len));
    }
    false
}

/// MAT's object alignment: the greatest common divisor of the gaps between sorted addresses,
/// clamped to 8..=256.
pub fn detect_alignment_mat(sorted_ids: impl IntoIterator<Item = u64>) -> u64 {
    mat_alignment(gcd_of_steps(sorted_ids))
}

/// MAT's alignment from the greatest common divisor of the steps ([`gcd_of_steps`]).
pub(crate) fn mat_alignment(steps: u64) -> u64 {
    steps.clamp(8, 256)
}

/// The greatest common divisor of the steps between sorted ids, those from id 0 left out (0 for
/// no step). It stops once at 8 or below: the alignment is 8 whatever follows, and the divisor
/// of more steps, or of these and others, is at or below it too.
pub(crate) fn gcd_of_steps(sorted_ids: impl IntoIterator<Item = u64>) -> u64 {
    let mut steps = Steps::default();
    for id in sorted_ids {
        steps.add(id);
        if steps.done() {
            break;
        }
    }
    steps.gcd()
}

/// [`gcd_of_steps`] fed one id at a time, for a loop that does more with each.
#[derive(Default)]
pub(crate) struct Steps {
    prev: Option<u64>,
    /// The last step that differed from the one before it: the divisor divides it, and most
    /// steps repeat it, so they need no division.
    same: u64,
    gcd: u64,
}

impl Steps {
    /// The next id, at or above the one before.
    #[inline]
    pub(crate) fn add(&mut self, id: u64) {
        let Some(p) = self.prev.replace(id) else { return };
        if p == 0 || self.done() {
            return;
        }
        let step = id - p;
        if step != self.same {
            self.gcd = gcd(self.gcd, step);
            self.same = step;
        }
    }

    /// Whether the divisor is at 8 or below, where more steps change nothing of the alignment.
    #[inline]
    pub(crate) fn done(&self) -> bool {
        self.gcd != 0 && self.gcd <= 8
    }

    /// The divisor so far.
    pub(crate) fn gcd(&self) -> u64 {
        self.gcd
    }
}

/// The greatest common divisor (`gcd(0, b) = b`).
pub(crate) fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mat_alignment_is_the_gcd_of_gaps() {
        assert_eq!(detect_alignment_mat([0x1000, 0x1010, 0x1030]), 16);
        assert_eq!(detect_alignment_mat([0x1000, 0x1004]), 8);
        assert_eq!(detect_alignment_mat([0u64; 0]), 8);
    }

    #[test]
    fn array_sizes_per_model() {
        let s = |model, id_size, ref_size| Sizer { model, id_size, ref_size, align: 8 };
        // VisualVM, compressed oops: 12-byte header + 4-byte length, aligned to 8.
        assert_eq!(s(SizeModel::Hotspot, 8, 4).array_size(BasicType::Byte, 24), 40);
        assert_eq!(s(SizeModel::Hotspot, 8, 4).array_size(BasicType::Object, 3), 32);
        // MAT, 64-bit without compressed oops: 24-byte header.
        assert_eq!(s(SizeModel::Mat, 8, 8).array_size(BasicType::Object, 2), 40);
        assert_eq!(s(SizeModel::Mat, 4, 4).array_size(BasicType::Char, 5), 24);
        // ahat/perflib: no header (perflib's byte[43224] is 43224 bytes).
        assert_eq!(s(SizeModel::Android, 4, 4).array_size(BasicType::Byte, 43224), 43224);
        assert_eq!(s(SizeModel::Android, 4, 4).array_size(BasicType::Object, 10), 40);
    }
}
