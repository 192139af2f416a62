//! A cursor over a list, shared by every list in the UI (the picker's and the screens').

/// A cursor over a list: the selected row and the first row shown.
#[derive(Debug, Default, Clone, Copy)]
pub struct Cursor {
    pub selected: usize,
    pub offset: usize,
}

impl Cursor {
    /// Moves by `delta` within `len` rows, keeping the selection on a page of `height` rows.
    pub fn step(&mut self, delta: isize, len: usize, height: usize) {
        if len == 0 {
            *self = Cursor::default();
            return;
        }
        let next = (self.selected as isize + delta).clamp(0, len as isize - 1) as usize;
        self.selected = next;
        self.fit(height);
    }

    /// Keeps the selection visible in a page of `height` rows.
    pub fn fit(&mut self, height: usize) {
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
    }
}
