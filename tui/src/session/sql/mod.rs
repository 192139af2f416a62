//! SQL over an analysed dump: SQLite (bundled, through rusqlite) with virtual tables that read
//! the engine's columns and the mapped dump in place, as Perfetto's trace processor exposes its
//! heap graph. Nothing is copied into SQLite: a row is an object's node (or a class, a root, a
//! reference) and each column is read from the index when SQLite asks for it.
//!
//! The tables, their columns and the functions are an interface ([`SCHEMA`]): columns and tables
//! may be added, never renamed. Ids are integers (the dump's own object ids).

pub mod export;
pub mod rows;
mod stop;

pub use stop::Stop;

use std::os::raw::c_int;
use std::sync::Arc;

use heap::{ClassId, Heap, Node};
use rusqlite::vtab::{
    eponymous_only_module, Context, IndexConstraintOp, IndexInfo, VTab, VTabConnection, VTabCursor, Values,
};
use rusqlite::{ffi, Connection};

/// Each table with a line on each column: what `query --schema` prints and the README lists.
pub const SCHEMA: &[(&str, &[(&str, &str)])] = &[
    (
        "objects",
        &[
            ("id", "the object's id"),
            ("class", "its class (a class object: `class NAME`)"),
            ("class_id", "the id of its class's class object (joins classes.id)"),
            ("kind", "instance, object_array, primitive_array or class"),
            ("heap", "the heap it is in (Android: app, zygote, image)"),
            ("shallow", "its own size in bytes, in the size model in force"),
            ("retained", "bytes it retains (its dominator subtree)"),
            ("retained_objects", "objects it retains, itself included"),
            ("native", "native bytes registered for it (NativeAllocationRegistry)"),
            ("dominator", "its immediate dominator's id; NULL under the virtual root or when unreachable"),
            ("reachability", "strong, weak or unreachable"),
            ("root", "its GC root kind when it is one (java_frame, sticky_class...), else NULL"),
            ("depth", "its distance from a GC root in references (0 for a root); NULL when unreachable"),
            ("length", "an array's length; NULL otherwise"),
            ("string", "the text of a String or char[]; NULL otherwise"),
            (
                "reachability_kind",
                "ahat's: strong, soft, finalizer, weak, phantom or unreachable (the weakest step of the best path)",
            ),
        ],
    ),
    (
        "classes",
        &[
            ("id", "the class object's id"),
            ("name", "the class's name, Java form (java.lang.String, int[])"),
            ("super", "the superclass's class object id"),
            ("loader", "the class loader's id; NULL for the bootstrap loader"),
            ("instances", "instances (arrays included), as the histogram counts them"),
            ("shallow", "their shallow bytes"),
            ("retained", "their retained bytes as the histogram has them (nested instances once)"),
        ],
    ),
    (
        "refs",
        &[
            ("src", "the referring object's id"),
            ("dst", "the referred object's id"),
            ("name", "the field's name, or [index] for an array element"),
            ("kind", "field, static, element or weak (a Reference's referent)"),
        ],
    ),
    (
        "roots",
        &[
            ("id", "the object a GC root record names (records naming no object in the dump are left out)"),
            ("kind", "the root's kind (jni_global, java_frame, sticky_class, thread_object...)"),
            ("thread", "the thread object's id, for a thread's local, frame or native stack"),
        ],
    ),
    (
        "fields",
        &[
            ("id", "the object's id (give it: each object is one record read)"),
            ("name", "the field's name (a class object's statics too)"),
            ("type", "its Java type (int, boolean, Object...)"),
            ("value", "its value: numbers as numbers, references as ids, null as NULL"),
        ],
    ),
];

/// The functions, with a line each.
pub const FUNCTIONS: &[(&str, &str)] = &[
    ("id_hex(id)", "the id as the 0x… text heaptui prints"),
    ("path(id)", "the shortest path from a GC root to the object, as text"),
];

/// What the tables read: the heap, and what a scan makes once for all its rows.
pub struct Db {
    heap: Arc<Heap>,
    /// Rows the tables have read, for a caller showing a long query's progress.
    read: Arc<std::sync::atomic::AtomicU64>,
    /// Every object's depth ([`heap::paths::GcPaths::depths`]), made when a scan reads `depth`.
    depths: std::sync::OnceLock<Vec<u32>>,
}

impl std::ops::Deref for Db {
    type Target = Heap;
    fn deref(&self) -> &Heap {
        &self.heap
    }
}

impl Db {
    pub fn new(heap: Arc<Heap>) -> Db {
        Db { heap, read: Default::default(), depths: Default::default() }
    }

    /// Objects on the shortest path from a GC root to `n`, `n` included; 0 when none reaches it.
    fn depth(&self, n: Node) -> u32 {
        match self.depths.get() {
            Some(d) => d.get(n.index()).copied().unwrap_or(0),
            None => self.heap.paths().depth(n) as u32,
        }
    }
}

/// A connection with the tables and functions over `heap`.
pub fn connect(heap: Arc<Heap>) -> rusqlite::Result<Connection> {
    connect_counting(heap, Default::default())
}

/// What a query gave: its columns, its first rows (as many as were kept), and how many more it
/// gave than were kept.
pub type Collected = (Vec<String>, Vec<Vec<rusqlite::types::Value>>, u64);

/// The longest string or blob a query may make (SQLite's `SQLITE_LIMIT_LENGTH`): a dump's longest
/// Strings fit many times over; `zeroblob(1e9)` does not.
pub const MAX_CELL: i32 = 64 << 20;

/// Why a query is refused before it runs (SQL typed or pasted is untrusted).
pub const READ_ONLY: &str =
    "heaptui's SQL only reads the heap: statements that write, ATTACH, VACUUM and PRAGMAs that change settings are refused";

/// The one statement `sql` holds, prepared, read-only: a second statement is refused (it would
/// be dropped), and so is a statement SQLite says may write.
pub fn prepare<'c>(conn: &'c Connection, sql: &str) -> Result<rusqlite::Statement<'c>, QueryError> {
    let mut batch = rusqlite::Batch::new(conn, sql);
    let Some(stmt) = batch.next().map_err(QueryError::Sql)? else {
        return Err(QueryError::Refused("the query holds no statement".into()));
    };
    if batch.next().map_err(QueryError::Sql)?.is_some() {
        return Err(QueryError::Refused("one statement at a time: the query holds a second one".into()));
    }
    if !stmt.readonly() {
        return Err(QueryError::Refused(READ_ONLY.into()));
    }
    Ok(stmt)
}

/// Why a query gave no rows.
#[derive(Debug)]
pub enum QueryError {
    /// SQLite's error.
    Sql(rusqlite::Error),
    /// Refused before it ran.
    Refused(String),
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::Sql(e) => e.fmt(f),
            QueryError::Refused(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for QueryError {}

impl From<rusqlite::Error> for QueryError {
    fn from(e: rusqlite::Error) -> QueryError {
        QueryError::Sql(e)
    }
}

/// Runs `sql` on `conn`, keeping its first `keep` rows.
pub fn collect(conn: &Connection, sql: &str, keep: usize) -> Result<Collected, QueryError> {
    let mut q = query(conn, sql)?;
    let (mut kept, mut more) = (Vec::new(), 0u64);
    q.each(|row| {
        if kept.len() < keep {
            kept.push(row);
        } else {
            more += 1;
        }
        Ok(true)
    })?;
    Ok((q.columns, kept, more))
}

/// A query prepared and checked ([`prepare`]), its columns known before its first row.
pub struct Query<'c> {
    stmt: rusqlite::Statement<'c>,
    /// Its columns' names.
    pub columns: Vec<String>,
}

/// `sql` on `conn`, ready to run.
pub fn query<'c>(conn: &'c Connection, sql: &str) -> Result<Query<'c>, QueryError> {
    let stmt = prepare(conn, sql)?;
    let columns = stmt.column_names().into_iter().map(str::to_string).collect();
    Ok(Query { stmt, columns })
}

impl Query<'_> {
    /// Runs it, handing each row to `row` as it comes (nothing kept here) until it says stop.
    pub fn each(
        &mut self,
        mut row: impl FnMut(Vec<rusqlite::types::Value>) -> Result<bool, QueryError>,
    ) -> Result<(), QueryError> {
        let n = self.columns.len();
        let mut rows = self.stmt.query([])?;
        while let Some(r) = rows.next()? {
            let values = (0..n).map(|i| r.get(i)).collect::<rusqlite::Result<Vec<_>>>()?;
            if !row(values)? {
                break;
            }
        }
        Ok(())
    }
}

/// What SQL typed or pasted may do on a connection: read. ATTACH is off (no file is opened or
/// made), defensive mode on (no schema or page writes), no schema is trusted, a cell is at most
/// [`MAX_CELL`] bytes, and an authorizer allows reading, functions and transactions, and the
/// PRAGMAs that only list; it denies every other action (writes, `VACUUM INTO`'s target too).
fn harden(conn: &Connection) -> rusqlite::Result<()> {
    use rusqlite::config::DbConfig;
    use rusqlite::hooks::{AuthAction, Authorization};
    use rusqlite::limits::Limit;
    conn.set_limit(Limit::SQLITE_LIMIT_ATTACHED, 0);
    conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, MAX_CELL);
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)?;
    conn.authorizer(Some(|ctx: rusqlite::hooks::AuthContext<'_>| match ctx.action {
        AuthAction::Select
        | AuthAction::Read { .. }
        | AuthAction::Function { .. }
        | AuthAction::Recursive
        | AuthAction::Transaction { .. }
        | AuthAction::Savepoint { .. } => Authorization::Allow,
        // The PRAGMAs that list (`table_info(objects)` names a table: its argument is no setting).
        AuthAction::Pragma { pragma_name, .. }
            if ["table_info", "table_xinfo", "table_list", "function_list", "module_list", "pragma_list"]
                .contains(&pragma_name) =>
        {
            Authorization::Allow
        }
        _ => Authorization::Deny,
    }));
    Ok(())
}

/// [`connect`], its tables adding each row they read to `read` (a query's progress).
pub fn connect_counting(heap: Arc<Heap>, read: Arc<std::sync::atomic::AtomicU64>) -> rusqlite::Result<Connection> {
    let conn = Connection::open_in_memory()?;
    harden(&conn)?;
    let db = Arc::new(Db { read, ..Db::new(heap.clone()) });
    conn.create_module("objects", eponymous_only_module::<Tab<Objects>>(), Some(db.clone()))?;
    conn.create_module("classes", eponymous_only_module::<Tab<Classes>>(), Some(db.clone()))?;
    conn.create_module("refs", eponymous_only_module::<Tab<Refs>>(), Some(db.clone()))?;
    conn.create_module("roots", eponymous_only_module::<Tab<Roots>>(), Some(db.clone()))?;
    conn.create_module("fields", eponymous_only_module::<Tab<Fields>>(), Some(db))?;
    use rusqlite::functions::FunctionFlags;
    let det = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function("id_hex", 1, det, |ctx| {
        Ok(ctx.get::<Option<i64>>(0)?.map(|id| heap::fmt::hex(id as u64)))
    })?;
    let h = heap.clone();
    conn.create_scalar_function("path", 1, det, move |ctx| {
        let Some(n) = ctx.get::<Option<i64>>(0)?.and_then(|id| h.index.node(id as u64)) else { return Ok(None) };
        let steps = h.paths().path(&h.index, n);
        let text: Vec<String> = steps
            .iter()
            .map(|s| {
                let r = s.reference.as_deref().map(|r| format!("{r} → ")).unwrap_or_default();
                format!("{r}{} {}", h.display_class(s.node), heap::fmt::hex(h.index.id(s.node)))
            })
            .collect();
        Ok((!text.is_empty()).then(|| text.join(" · ")))
    })?;
    Ok(conn)
}

/// A value of a cell. Names the index holds are handed to SQLite borrowed, not copied: a full
/// scan of 14 million objects would otherwise make as many Strings.
#[derive(Clone)]
enum Cell {
    Int(i64),
    Real(f64),
    Text(String),
    Str(&'static str),
    /// A class's name (its place in the class table).
    Class(u32),
    /// A heap's name (its place in the index's heaps).
    Heap(usize),
    Null,
}

impl Cell {
    fn id(id: u64) -> Cell {
        Cell::Int(id as i64)
    }
}

/// What a table is: its columns, the rows a plan yields, and each cell.
trait Table: Sized + 'static {
    /// Its name in [`SCHEMA`].
    const NAME: &'static str;
    /// The column a constraint `= value` may be looked up by, and the plan number it selects
    /// (the plans are the table's own; 0 is the full scan).
    const LOOKUPS: &'static [(c_int, c_int)];
    /// A column whose order the full scan can give: ascending as plan `.1`, descending as plan
    /// `.2` (SQLite then skips its own sort: `GROUP BY class_id` streams; SQLite asks a GROUP BY
    /// in the direction of an ORDER BY that follows it, so both are needed).
    const ORDERED: Option<(c_int, c_int, c_int)> = None;
    /// The rows of plan `plan` with `arg` its lookup value.
    fn rows(heap: &Heap, plan: c_int, arg: Option<i64>) -> Rows;
    /// Makes what plan `plan` reading the columns in `used` (a bit a column, as SQLite's
    /// `colUsed`) needs made once for all its rows.
    fn prepare(_db: &Db, _plan: c_int, _used: u64) {}
    /// Cell `col` of row `row`.
    fn cell(heap: &Db, row: &Row, col: c_int) -> Cell;
}

/// A row: a number (a node, a class, a root's place) or a reference / field made for it.
#[derive(Clone)]
enum Row {
    At(u32),
    Ref { src: Node, dst: u64, name: String, kind: &'static str },
    Field { id: Node, name: String, ty: &'static str, value: Cell },
}

/// Makes a page of the rows of a source from a position: the rows, and where the next page
/// starts (`None`: the source is done).
type Expander = fn(&Heap, u32, usize) -> (Vec<Row>, Option<usize>);

/// The rows a cursor walks: a range of numbers, a list, or rows made one source at a time.
enum Rows {
    Range(std::ops::Range<u32>),
    List(Vec<u32>, usize),
    /// Every object, class after class (`classes`: class table places in the order wanted),
    /// each class's instances as the engine keeps them; `at` the class, `pos` the instance.
    ByClass {
        classes: Vec<u32>,
        at: usize,
        pos: usize,
    },
    /// Sources in a range or list, each expanded into its rows as the cursor reaches it, a page
    /// at a time (`at`: the source being expanded and where its next page starts), so an array of
    /// millions of elements never has all its rows made at once.
    Expand {
        sources: Box<Rows>,
        made: std::collections::VecDeque<Row>,
        expand: Expander,
        at: Option<(u32, usize)>,
    },
}

impl Rows {
    fn next_number(&mut self, heap: &Heap) -> Option<u32> {
        match self {
            Rows::ByClass { classes, at, pos } => loop {
                let list = heap.instances_by_retained(ClassId(*classes.get(*at)?));
                if let Some(n) = list.get(*pos) {
                    *pos += 1;
                    break Some(n.0);
                }
                *at += 1;
                *pos = 0;
            },
            Rows::Range(r) => r.next(),
            Rows::List(v, i) => {
                let n = v.get(*i).copied();
                *i += 1;
                n
            }
            Rows::Expand { .. } => None,
        }
    }

    /// The next row: a number, or the next row made from a source.
    fn next_row(&mut self, heap: &Heap) -> Option<Row> {
        match self {
            Rows::Expand { sources, made, expand, at } => loop {
                if let Some(r) = made.pop_front() {
                    break Some(r);
                }
                let (src, from) = match at.take() {
                    Some(page) => page,
                    None => (sources.next_number(heap)?, 0),
                };
                let (rows, next) = expand(heap, src, from);
                made.extend(rows);
                *at = next.map(|n| (src, n));
            },
            rows => rows.next_number(heap).map(Row::At),
        }
    }
}

#[repr(C)]
struct Tab<T: Table> {
    base: ffi::sqlite3_vtab,
    heap: Arc<Db>,
    _t: std::marker::PhantomData<T>,
}

unsafe impl<'vtab, T: Table> VTab<'vtab> for Tab<T> {
    type Aux = Arc<Db>;
    type Cursor = Cursor<T>;

    fn connect(_: &mut VTabConnection, aux: Option<&Arc<Db>>, _: &[&[u8]]) -> rusqlite::Result<(String, Self)> {
        let heap = aux.cloned().ok_or_else(|| rusqlite::Error::ModuleError("no heap".into()))?;
        let columns = SCHEMA.iter().find(|(n, _)| *n == T::NAME).map(|(_, c)| *c).unwrap_or(&[]);
        let names: Vec<&str> = columns.iter().map(|(c, _)| *c).collect();
        let ddl = format!("CREATE TABLE x({})", names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(","));
        Ok((ddl, Tab { base: ffi::sqlite3_vtab::default(), heap, _t: std::marker::PhantomData }))
    }

    fn best_index(&self, info: &mut IndexInfo) -> rusqlite::Result<()> {
        // The first usable `column = value` the table can look up by; else a full scan.
        let mut chosen = None;
        for (i, c) in info.constraints().enumerate() {
            if c.is_usable() && c.operator() == IndexConstraintOp::SQLITE_INDEX_CONSTRAINT_EQ {
                if let Some(&(_, plan)) = T::LOOKUPS.iter().find(|(col, _)| *col == c.column()) {
                    chosen = Some((i, plan));
                    break;
                }
            }
        }
        // With no lookup, a full scan in the order asked for, when the table can give it.
        let mut orders = info.order_bys();
        let ordered = match (orders.next(), orders.next(), T::ORDERED) {
            (Some(o), None, Some((col, up, down))) if o.column() == col => {
                Some(if o.is_order_by_desc() { down } else { up })
            }
            _ => None,
        };
        // The columns read go to `filter` (for `prepare`) as the plan's text: EXPLAIN shows it.
        info.set_idx_str(&format!("columns {:#x}", info.col_used()));
        match chosen {
            Some((i, plan)) => {
                let mut usage = info.constraint_usage(i);
                usage.set_argv_index(1);
                usage.set_omit(true);
                info.set_idx_num(plan);
                info.set_estimated_cost(10.0);
                info.set_estimated_rows(10);
            }
            None if ordered.is_some() => {
                info.set_idx_num(ordered.unwrap_or(0));
                info.set_order_by_consumed(true);
                let rows = self.heap.index.len() as f64;
                info.set_estimated_cost(rows.max(1.0) * 10.0);
                info.set_estimated_rows(self.heap.index.len() as i64);
            }
            None => {
                info.set_idx_num(0);
                let rows = self.heap.index.len() as f64;
                info.set_estimated_cost(rows.max(1.0) * 10.0);
                info.set_estimated_rows(self.heap.index.len() as i64);
            }
        }
        Ok(())
    }

    fn open(&'vtab mut self) -> rusqlite::Result<Cursor<T>> {
        // A scan may read an id on every row: the whole map, not a read of each record (made
        // again once, after an analysis let it go).
        self.heap.index.id_map();
        Ok(Cursor {
            base: ffi::sqlite3_vtab_cursor::default(),
            heap: self.heap.clone(),
            rows: Rows::Range(0..0),
            row: None,
            rowid: 0,
            _t: std::marker::PhantomData,
        })
    }
}

#[repr(C)]
struct Cursor<T: Table> {
    base: ffi::sqlite3_vtab_cursor,
    heap: Arc<Db>,
    rows: Rows,
    row: Option<Row>,
    rowid: i64,
    _t: std::marker::PhantomData<T>,
}

impl<T: Table> Cursor<T> {
    fn advance(&mut self) {
        self.rowid += 1;
        self.heap.read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // A scan reading every String or array maps in the whole dump: give its pages back as
        // it goes, so a query holds the index and a window of the file, not the file.
        if self.rowid % (1 << 20) == 0 {
            self.heap.index.release_pages();
        }
        self.row = self.rows.next_row(&self.heap);
    }
}

unsafe impl<T: Table> VTabCursor for Cursor<T> {
    fn filter(&mut self, plan: c_int, columns: Option<&str>, args: &Values<'_>) -> rusqlite::Result<()> {
        // Every column, when the plan does not say.
        let used = columns
            .and_then(|c| c.strip_prefix("columns 0x"))
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .unwrap_or(u64::MAX);
        // The lookup value: an integer, or a real that is one (`id = 1.0`); anything else (text,
        // a fraction, NULL) names no object.
        let arg = if args.is_empty() {
            None
        } else {
            match args.get::<rusqlite::types::Value>(0)? {
                rusqlite::types::Value::Integer(i) => Some(i),
                rusqlite::types::Value::Real(r) if r.fract() == 0.0 && r.abs() < 9.2e18 => Some(r as i64),
                _ => None,
            }
        };
        // A lookup `= NULL` matches nothing.
        let lookup = T::LOOKUPS.iter().any(|&(_, p)| p == plan);
        self.rows = if lookup && arg.is_none() { Rows::Range(0..0) } else { T::rows(&self.heap, plan, arg) };
        T::prepare(&self.heap, plan, used);
        self.rowid = 0;
        self.advance();
        Ok(())
    }

    fn next(&mut self) -> rusqlite::Result<()> {
        self.advance();
        Ok(())
    }

    fn eof(&self) -> bool {
        self.row.is_none()
    }

    fn column(&self, ctx: &mut Context, col: c_int) -> rusqlite::Result<()> {
        let Some(row) = &self.row else { return ctx.set_result(&rusqlite::types::Null) };
        let idx = &self.heap.index;
        match T::cell(&self.heap, row, col) {
            Cell::Int(v) => ctx.set_result(&v),
            Cell::Real(v) => ctx.set_result(&v),
            Cell::Text(v) => ctx.set_result(&v),
            Cell::Str(v) => ctx.set_result(&v),
            Cell::Class(c) => ctx.set_result(&idx.classes.get(c as usize).map_or("", |c| c.name.as_str())),
            Cell::Heap(h) => ctx.set_result(&idx.heaps.get(h).map_or("default", |h| h.name.as_str())),
            Cell::Null => ctx.set_result(&rusqlite::types::Null),
        }
    }

    fn rowid(&self) -> rusqlite::Result<i64> {
        Ok(self.rowid)
    }
}

fn node_of(heap: &Heap, id: i64) -> Option<Node> {
    heap.index.node(id as u64)
}

fn opt_int(v: Option<u64>) -> Cell {
    v.map_or(Cell::Null, |v| Cell::Int(v as i64))
}

struct Objects;

impl Table for Objects {
    const NAME: &'static str = "objects";
    // id = (plan 1), class_id = (plan 2); in class_id order (plan 3), or its reverse (plan 4).
    const LOOKUPS: &'static [(c_int, c_int)] = &[(0, 1), (2, 2)];
    const ORDERED: Option<(c_int, c_int, c_int)> = Some((2, 3, 4));

    fn rows(heap: &Heap, plan: c_int, arg: Option<i64>) -> Rows {
        match (plan, arg) {
            (1, Some(id)) => Rows::List(node_of(heap, id).map(|n| n.0).into_iter().collect(), 0),
            // Every class of that id (synthesized classes share id 0; a dump may repeat one).
            (2, Some(id)) => {
                let classes = &heap.index.classes;
                let same: Vec<u32> =
                    (0..classes.len() as u32).filter(|&c| classes[c as usize].id as i64 == id).collect();
                match heap.by_class_if_made() {
                    Some(_) => Rows::ByClass { classes: same, at: 0, pos: 0 },
                    // One pass over the objects' classes rather than sorting every class.
                    None => Rows::List(
                        heap.index.nodes().filter(|&n| same.contains(&heap.index.class_of(n).0)).map(|n| n.0).collect(),
                        0,
                    ),
                }
            }
            // Every object grouped by class, the classes in the order SQLite compares their
            // ids (as signed integers), each class's objects in node order: a count and a fill,
            // two passes over the objects' classes.
            (3 | 4, _) => {
                let idx = &heap.index;
                let mut order: Vec<u32> = (0..idx.classes.len() as u32).collect();
                order.sort_by_key(|&c| idx.classes[c as usize].id as i64);
                if plan == 4 {
                    order.reverse();
                }
                let mut rank = vec![0u32; order.len()];
                for (r, &c) in order.iter().enumerate() {
                    rank[c as usize] = r as u32;
                }
                let mut starts = vec![0u32; order.len() + 1];
                for n in idx.nodes() {
                    starts[rank[idx.class_of(n).index()] as usize + 1] += 1;
                }
                for r in 1..starts.len() {
                    starts[r] += starts[r - 1];
                }
                let mut nodes = vec![0u32; idx.len()];
                for n in idx.nodes() {
                    let slot = &mut starts[rank[idx.class_of(n).index()] as usize];
                    nodes[*slot as usize] = n.0;
                    *slot += 1;
                }
                Rows::List(nodes, 0)
            }
            _ => Rows::Range(0..heap.index.len() as u32),
        }
    }

    /// A scan reading `depth` (anything but one object by id) makes every object's depth at
    /// once: walking each object's path up alone costs the square of a long chain's length.
    fn prepare(db: &Db, plan: c_int, used: u64) {
        if plan != 1 && used & (1 << 12) != 0 {
            db.depths.get_or_init(|| db.heap.paths().depths());
        }
    }

    fn cell(heap: &Db, row: &Row, col: c_int) -> Cell {
        let Row::At(n) = *row else { return Cell::Null };
        let n = Node(n);
        let idx = &heap.index;
        let d = &heap.dominators;
        match col {
            0 => Cell::id(idx.id(n)),
            // Only instances of java.lang.Class can be class objects (and its name is cheaper to
            // compare than a class object to look up).
            1 => match idx.class(n).name == "java.lang.Class" && idx.as_class(n).is_some() {
                true => Cell::Text(heap.display_class(n)),
                false => Cell::Class(idx.class_of(n).0),
            },
            2 => Cell::id(idx.class(n).id),
            3 => Cell::Str(match idx.kind(n) {
                heap::ObjectKind::Instance => "instance",
                heap::ObjectKind::ObjectArray => "object_array",
                heap::ObjectKind::PrimitiveArray => "primitive_array",
                heap::ObjectKind::Class => "class",
            }),
            4 => Cell::Heap(idx.heap_of(n)),
            5 => Cell::id(idx.shallow_size(n)),
            6 => Cell::id(d.retained(n)),
            7 => Cell::Int(i64::from(d.retained_count(n))),
            8 => Cell::id(heap.native_size(n)),
            9 => match heap.dominator(n) {
                Some(Some(dom)) => Cell::id(idx.id(dom)),
                _ => Cell::Null,
            },
            10 => Cell::Str(d.reach(n).name()),
            11 => heap.root_kinds(n).first().map_or(Cell::Null, |k| Cell::Str(k.name())),
            12 => match heap.depth(n) {
                0 => Cell::Null,
                steps => Cell::Int(i64::from(steps) - 1),
            },
            13 => opt_int(idx.array_length(n).map(u64::from)),
            14 => idx.string_value(n).map_or(Cell::Null, Cell::Text),
            15 => Cell::Str(heap.reachability(n).name()),
            _ => Cell::Null,
        }
    }
}

struct Classes;

impl Table for Classes {
    const NAME: &'static str = "classes";
    const LOOKUPS: &'static [(c_int, c_int)] = &[(0, 1)];

    fn rows(heap: &Heap, plan: c_int, arg: Option<i64>) -> Rows {
        match (plan, arg) {
            (1, Some(id)) => Rows::List(heap.index.class_by_id(id as u64).map(|c| c.0).into_iter().collect(), 0),
            _ => Rows::Range(0..heap.index.classes.len() as u32),
        }
    }

    fn cell(heap: &Db, row: &Row, col: c_int) -> Cell {
        let Row::At(c) = *row else { return Cell::Null };
        let idx = &heap.index;
        let Some(class) = idx.classes.get(c as usize) else { return Cell::Null };
        let h = heap.histogram[ClassId(c).index()];
        match col {
            0 => Cell::id(class.id),
            1 => Cell::Class(c),
            2 => class.super_class.map_or(Cell::Null, |s| Cell::id(idx.classes[s.index()].id)),
            3 => {
                if class.loader == 0 {
                    Cell::Null
                } else {
                    Cell::id(class.loader)
                }
            }
            4 => Cell::id(h.instances),
            5 => Cell::id(h.shallow_bytes),
            6 => Cell::id(h.retained_bytes),
            _ => Cell::Null,
        }
    }
}

struct Refs;

/// The references of object `src`: its fields' and statics' objects, an array's elements, each
/// named; a Reference's referent is `weak`.
/// Elements of an object array made into rows at a time.
const PAGE: usize = 4096;

fn refs_of(heap: &Heap, src: u32, from: usize) -> (Vec<Row>, Option<usize>) {
    let idx = &heap.index;
    let n = Node(src);
    let weak: Vec<u32> = idx
        .graph()
        .edges(src)
        .iter()
        .filter(|&&e| e & heap::index::csr::WEAK != 0)
        .map(|&e| e & !heap::index::csr::WEAK)
        .collect();
    let mut out = Vec::new();
    if let Ok(heap::hprof::SubRecord::ObjectArray { elements, .. }) = idx.record(n) {
        let id_size = idx.header.id_size as usize;
        let count = elements.len() / id_size;
        let end = from.saturating_add(PAGE).min(count);
        for i in from.min(end)..end {
            let id = heap::hprof::cursor::read_id(&elements[i * id_size..(i + 1) * id_size], id_size as u32);
            if id != 0 {
                out.push(Row::Ref { src: n, dst: id, name: format!("[{i}]"), kind: "element" });
            }
        }
        return (out, (end < count).then_some(end));
    }
    for f in idx.fields(n) {
        let Some(id) = f.value.as_object().filter(|&id| id != 0) else { continue };
        let kind = if f.is_static {
            "static"
        } else if f.name == "referent" && idx.node(id).is_some_and(|t| weak.contains(&t.0)) {
            "weak"
        } else {
            "field"
        };
        out.push(Row::Ref { src: n, dst: id, name: f.name, kind });
    }
    (out, None)
}

/// The references of `src` to the object of id `dst`, a page of an array at a time.
fn refs_to(heap: &Heap, src: u32, dst: u64) -> Vec<Row> {
    let mut out = Vec::new();
    let mut from = Some(0);
    while let Some(f) = from {
        let (rows, next) = refs_of(heap, src, f);
        out.extend(rows.into_iter().filter(|r| matches!(r, Row::Ref { dst: d, .. } if *d == dst)));
        from = next;
    }
    out
}

impl Table for Refs {
    const NAME: &'static str = "refs";
    // src = (plan 1), dst = (plan 2).
    const LOOKUPS: &'static [(c_int, c_int)] = &[(0, 1), (1, 2)];

    fn rows(heap: &Heap, plan: c_int, arg: Option<i64>) -> Rows {
        let expand: Expander = refs_of;
        let sources = match (plan, arg) {
            (1, Some(id)) => Rows::List(node_of(heap, id).map(|n| n.0).into_iter().collect(), 0),
            // The referrers' references to `dst`.
            (2, Some(id)) => {
                let rows: Vec<Row> = match node_of(heap, id) {
                    Some(dst) => {
                        heap.referrers(dst).into_iter().flat_map(|(r, _)| refs_to(heap, r.0, id as u64)).collect()
                    }
                    None => Vec::new(),
                };
                return Rows::Expand { sources: Box::new(Rows::Range(0..0)), made: rows.into(), expand, at: None };
            }
            _ => Rows::Range(0..heap.index.len() as u32),
        };
        Rows::Expand { sources: Box::new(sources), made: Default::default(), expand, at: None }
    }

    fn cell(heap: &Db, row: &Row, col: c_int) -> Cell {
        let Row::Ref { src, dst, name, kind } = row else { return Cell::Null };
        match col {
            0 => Cell::id(heap.index.id(*src)),
            1 => Cell::id(*dst),
            2 => Cell::Text(name.clone()),
            3 => Cell::Str(kind),
            _ => Cell::Null,
        }
    }
}

struct Roots;

impl Table for Roots {
    const NAME: &'static str = "roots";
    const LOOKUPS: &'static [(c_int, c_int)] = &[];

    fn rows(heap: &Heap, _: c_int, _: Option<i64>) -> Rows {
        Rows::Range(0..heap.index.roots().len() as u32)
    }

    fn cell(heap: &Db, row: &Row, col: c_int) -> Cell {
        let Row::At(i) = *row else { return Cell::Null };
        let idx = &heap.index;
        let Some(&(n, kind)) = idx.roots().get(i as usize) else { return Cell::Null };
        match col {
            0 => Cell::id(idx.id(n)),
            1 => Cell::Str(kind.name()),
            2 => idx.root_thread(n).map_or(Cell::Null, |t| Cell::id(idx.id(t))),
            _ => Cell::Null,
        }
    }
}

struct Fields;

/// The fields of object `n` with their values.
fn fields_of(heap: &Heap, n: u32, _: usize) -> (Vec<Row>, Option<usize>) {
    use heap::values::Value;
    let rows = heap
        .index
        .fields(Node(n))
        .into_iter()
        .map(|f| {
            let value = match f.value {
                Value::Object(0) => Cell::Null,
                Value::Object(id) => Cell::Int(id as i64),
                Value::Boolean(b) => Cell::Int(i64::from(b)),
                Value::Char(c) => Cell::Text(char::from_u32(u32::from(c)).map_or_else(String::new, String::from)),
                Value::Float(v) => Cell::Real(f64::from(v)),
                Value::Double(v) => Cell::Real(v),
                Value::Byte(v) => Cell::Int(i64::from(v)),
                Value::Short(v) => Cell::Int(i64::from(v)),
                Value::Int(v) => Cell::Int(i64::from(v)),
                Value::Long(v) => Cell::Int(v),
            };
            Row::Field { id: Node(n), name: f.name, ty: f.ty.java_name(), value }
        })
        .collect();
    (rows, None)
}

impl Table for Fields {
    const NAME: &'static str = "fields";
    const LOOKUPS: &'static [(c_int, c_int)] = &[(0, 1)];

    fn rows(heap: &Heap, plan: c_int, arg: Option<i64>) -> Rows {
        let sources = match (plan, arg) {
            (1, Some(id)) => Rows::List(node_of(heap, id).map(|n| n.0).into_iter().collect(), 0),
            _ => Rows::Range(0..heap.index.len() as u32),
        };
        Rows::Expand { sources: Box::new(sources), made: Default::default(), expand: fields_of, at: None }
    }

    fn cell(heap: &Db, row: &Row, col: c_int) -> Cell {
        let Row::Field { id, name, ty, value } = row else { return Cell::Null };
        match col {
            0 => Cell::id(heap.index.id(*id)),
            1 => Cell::Text(name.clone()),
            2 => Cell::Str(ty),
            3 => value.clone(),
            _ => Cell::Null,
        }
    }
}
