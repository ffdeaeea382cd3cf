//! Mutations of a wasm module, at three levels: raw bytes, the module's sections, and
//! the meaning of what the post-process reads (export records; the imports and exports
//! the runtime relies on). Every mutation applies to any bytes: one that finds nothing to
//! change (an earlier mutation broke what it edits) returns the bytes as they were.

use bridge_schema::{FunctionKind, Item, Receiver, Record, SECTION_NAME, Scalar, Ty};
use proptest::prelude::*;

#[derive(Debug, Clone)]
pub enum Mutation {
    /// XOR the byte at each position (scaled to the length) with the value.
    FlipBytes(Vec<(u32, u8)>),
    /// Keep this fraction (of `u32::MAX`) of the module.
    Truncate(u32),
    /// Remove the n-th section (modulo the count).
    DropSection(u16),
    /// Repeat the n-th section right after itself.
    RepeatSection(u16),
    /// Cut the n-th section's payload to a fraction, keeping its declared size.
    TruncateSection(u16, u32),
    /// Flip bytes inside the export section's payload.
    FlipExports(Vec<(u32, u8)>),
    /// Cut the export section's payload to a fraction.
    TruncateExports(u32),
    /// Edit the decoded export records and encode them again.
    Record(RecordEdit),
    /// Edit the module's imports or exports.
    Wasm(WasmEdit),
}

#[derive(Debug, Clone)]
pub enum RecordEdit {
    Drop(u8),
    Repeat(u8),
    /// Frame the n-th record with another schema version.
    Version(u8, u32),
    /// Replace the n-th record's JSON with this text.
    RawJson(u8, &'static str),
    /// Turn the n-th record into another kind of item with the same name.
    ItemKind(u8, u8),
    FunctionKind(u8, u8, u8),
    Receiver(u8, u8, u8),
    /// Give the n-th function's m-th parameter (or its result if none) a type.
    Type(u8, u8, TyGen),
    /// Point the n-th function at a symbol: another function's, or one of [`NAMES`].
    Symbol(u8, u8, u8),
    RenameClass(u8, u8),
    IdentityMode(u8, &'static str),
    JsName(u8, u8, u8),
}

/// A boundary type; `Class(n)` is the n-th class of the section, or one of [`NAMES`].
#[derive(Debug, Clone)]
pub enum TyGen {
    Leaf(u8),
    Class(u8, u8),
    Option(Box<TyGen>),
    Vec(Box<TyGen>),
}

#[derive(Debug, Clone)]
pub enum WasmEdit {
    /// Remove the n-th export.
    RemoveExport(u16),
    /// Export a global under the n-th exported function's name instead.
    ExportGlobalInstead(u16),
    /// Import the n-th `__bridge_identity` hook with another signature.
    RetypeIdentityImport(u16, u8),
    /// Add an identity hook import for a class no record declares.
    StrayIdentityImport(u8),
}

/// Names that are not what the post-process expects.
const NAMES: [&str; 6] = [
    "",
    "Ghost",
    "memory",
    "a b",
    "__bridge_alloc",
    "constructor",
];
const IDENTITY_MODES: [&str; 5] = ["none", "pointer", "rust", "Rust", "weak"];
const RAW_JSON: [&str; 6] = [
    "",
    "{}",
    "null",
    r#"{"crate_name":"x","item":{"item":"class"}}"#,
    r#"{"crate_name":"x","item":{"item":"module","name":"M"}}"#,
    r#"{"crate_name":7,"item":[]}"#,
];

fn flips() -> impl Strategy<Value = Vec<(u32, u8)>> {
    prop::collection::vec((any::<u32>(), 1u8..=255), 1..8)
}

fn ty_gen() -> impl Strategy<Value = TyGen> {
    let leaf = prop_oneof![
        (0u8..16).prop_map(TyGen::Leaf),
        (any::<u8>(), any::<u8>()).prop_map(|(n, fake)| TyGen::Class(n, fake)),
    ];
    leaf.prop_recursive(3, 6, 1, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| TyGen::Option(Box::new(t))),
            inner.prop_map(|t| TyGen::Vec(Box::new(t))),
        ]
    })
}

fn record_edit() -> impl Strategy<Value = RecordEdit> {
    let n = any::<u8>;
    prop_oneof![
        n().prop_map(RecordEdit::Drop),
        n().prop_map(RecordEdit::Repeat),
        (
            n(),
            prop_oneof![Just(0u32), Just(2), Just(u32::MAX), any::<u32>()]
        )
            .prop_map(|(i, v)| RecordEdit::Version(i, v)),
        (n(), prop::sample::select(&RAW_JSON[..])).prop_map(|(i, j)| RecordEdit::RawJson(i, j)),
        (n(), n()).prop_map(|(i, k)| RecordEdit::ItemKind(i, k)),
        (n(), n(), n()).prop_map(|(i, j, k)| RecordEdit::FunctionKind(i, j, k)),
        (n(), n(), n()).prop_map(|(i, j, k)| RecordEdit::Receiver(i, j, k)),
        (n(), n(), ty_gen()).prop_map(|(i, j, t)| RecordEdit::Type(i, j, t)),
        (n(), n(), n()).prop_map(|(i, j, k)| RecordEdit::Symbol(i, j, k)),
        (n(), n()).prop_map(|(i, k)| RecordEdit::RenameClass(i, k)),
        (n(), prop::sample::select(&IDENTITY_MODES[..]))
            .prop_map(|(i, m)| RecordEdit::IdentityMode(i, m)),
        (n(), n(), n()).prop_map(|(i, j, k)| RecordEdit::JsName(i, j, k)),
    ]
}

fn wasm_edit() -> impl Strategy<Value = WasmEdit> {
    prop_oneof![
        any::<u16>().prop_map(WasmEdit::RemoveExport),
        any::<u16>().prop_map(WasmEdit::ExportGlobalInstead),
        (any::<u16>(), any::<u8>()).prop_map(|(i, s)| WasmEdit::RetypeIdentityImport(i, s)),
        any::<u8>().prop_map(WasmEdit::StrayIdentityImport),
    ]
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => flips().prop_map(Mutation::FlipBytes),
        1 => any::<u32>().prop_map(Mutation::Truncate),
        1 => any::<u16>().prop_map(Mutation::DropSection),
        1 => any::<u16>().prop_map(Mutation::RepeatSection),
        1 => (any::<u16>(), any::<u32>()).prop_map(|(i, f)| Mutation::TruncateSection(i, f)),
        2 => flips().prop_map(Mutation::FlipExports),
        1 => any::<u32>().prop_map(Mutation::TruncateExports),
        6 => record_edit().prop_map(Mutation::Record),
        3 => wasm_edit().prop_map(Mutation::Wasm),
    ]
}

fn scale(fraction: u32, len: usize) -> usize {
    (u64::from(fraction) * len as u64 / (u64::from(u32::MAX) + 1)) as usize
}

fn flip(bytes: &mut [u8], flips: &[(u32, u8)]) {
    if bytes.is_empty() {
        return;
    }
    for &(at, xor) in flips {
        let i = scale(at, bytes.len());
        bytes[i] ^= xor;
    }
}

pub fn apply(m: &Mutation, mut bytes: Vec<u8>) -> Vec<u8> {
    match m {
        Mutation::FlipBytes(f) => {
            flip(&mut bytes, f);
            bytes
        }
        Mutation::Truncate(f) => {
            bytes.truncate(scale(*f, bytes.len()));
            bytes
        }
        Mutation::DropSection(i) => edit_section(bytes, *i, |_, out| out.clear()),
        Mutation::RepeatSection(i) => edit_section(bytes, *i, |whole, out| {
            out.extend_from_slice(whole);
        }),
        Mutation::TruncateSection(i, f) => edit_section(bytes, *i, |whole, out| {
            // Declared size kept: the section now swallows what follows it, or runs out.
            out.truncate(scale(*f, whole.len()).max(1));
        }),
        Mutation::FlipExports(f) => edit_exports(bytes, |payload| flip(payload, f)),
        Mutation::TruncateExports(f) => edit_exports(bytes, |payload| {
            payload.truncate(scale(*f, payload.len()));
        }),
        Mutation::Record(edit) => edit_exports(bytes, |payload| edit_records(payload, edit)),
        Mutation::Wasm(edit) => edit_wasm(bytes, edit),
    }
}

/// `(start, end)` of each section (id byte to end of payload), if the framing parses.
fn sections(bytes: &[u8]) -> Option<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    let mut at = 8;
    if bytes.len() < at {
        return None;
    }
    while at < bytes.len() {
        let start = at;
        at += 1;
        let (size, read) = leb_u32(bytes.get(at..)?)?;
        at += read;
        let end = at.checked_add(size as usize)?;
        if end > bytes.len() {
            return None;
        }
        out.push((start, end));
        at = end;
    }
    Some(out)
}

fn leb_u32(bytes: &[u8]) -> Option<(u32, usize)> {
    let mut value = 0u32;
    for (i, b) in bytes.iter().enumerate().take(5) {
        value |= u32::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

fn push_leb(out: &mut Vec<u8>, mut value: u32) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Replace the n-th section (modulo the count) with what `f` leaves in `out` (given the
/// whole section, `out` starts as a copy of it).
fn edit_section(bytes: Vec<u8>, n: u16, f: impl FnOnce(&[u8], &mut Vec<u8>)) -> Vec<u8> {
    let Some(list) = sections(&bytes) else {
        return bytes;
    };
    if list.is_empty() {
        return bytes;
    }
    let (start, end) = list[usize::from(n) % list.len()];
    let whole = &bytes[start..end];
    let mut replacement = whole.to_vec();
    f(whole, &mut replacement);
    let mut out = bytes[..start].to_vec();
    out.extend_from_slice(&replacement);
    out.extend_from_slice(&bytes[end..]);
    out
}

/// Edit the payload of the export custom section (after its name), re-framing it.
fn edit_exports(bytes: Vec<u8>, f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let Some(list) = sections(&bytes) else {
        return bytes;
    };
    for (start, end) in list {
        if bytes[start] != 0 {
            continue;
        }
        let Some((_, size_len)) = leb_u32(&bytes[start + 1..]) else {
            continue;
        };
        let content = start + 1 + size_len;
        let Some((name_len, name_leb)) = leb_u32(&bytes[content..end]) else {
            continue;
        };
        let name_start = content + name_leb;
        let payload_start = name_start + name_len as usize;
        if payload_start > end || &bytes[name_start..payload_start] != SECTION_NAME.as_bytes() {
            continue;
        }
        let mut payload = bytes[payload_start..end].to_vec();
        f(&mut payload);
        let mut section_body = Vec::new();
        push_leb(&mut section_body, name_len);
        section_body.extend_from_slice(SECTION_NAME.as_bytes());
        section_body.extend_from_slice(&payload);
        let mut out = bytes[..start].to_vec();
        out.push(0);
        push_leb(&mut out, section_body.len() as u32);
        out.extend_from_slice(&section_body);
        out.extend_from_slice(&bytes[end..]);
        return out;
    }
    bytes
}

/// One framed record: the schema version and its JSON.
struct Framed {
    version: u32,
    json: Vec<u8>,
}

fn split_records(mut payload: &[u8]) -> Option<Vec<Framed>> {
    let mut out = Vec::new();
    while !payload.is_empty() {
        let len = u32::from_le_bytes(payload.get(0..4)?.try_into().ok()?) as usize;
        let version = u32::from_le_bytes(payload.get(4..8)?.try_into().ok()?);
        let json = payload.get(8..4 + len)?.to_vec();
        out.push(Framed { version, json });
        payload = &payload[4 + len..];
    }
    Some(out)
}

fn join_records(records: &[Framed]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        out.extend_from_slice(&((r.json.len() + 4) as u32).to_le_bytes());
        out.extend_from_slice(&r.version.to_le_bytes());
        out.extend_from_slice(&r.json);
    }
    out
}

fn edit_records(payload: &mut Vec<u8>, edit: &RecordEdit) {
    let Some(mut records) = split_records(payload) else {
        return;
    };
    if records.is_empty() {
        return;
    }
    let n = records.len();
    let pick = |i: &u8| usize::from(*i) % n;
    match edit {
        RecordEdit::Drop(i) => {
            records.remove(pick(i));
        }
        RecordEdit::Repeat(i) => {
            let r = &records[pick(i)];
            let copy = Framed {
                version: r.version,
                json: r.json.clone(),
            };
            records.insert(pick(i), copy);
        }
        RecordEdit::Version(i, v) => records[pick(i)].version = *v,
        RecordEdit::RawJson(i, json) => records[pick(i)].json = json.as_bytes().to_vec(),
        other => {
            let classes: Vec<String> = records
                .iter()
                .filter_map(
                    |r| match serde_json::from_slice::<Record>(&r.json).ok()?.item {
                        Item::Class(c) => Some(c.name),
                        _ => None,
                    },
                )
                .collect();
            let symbols: Vec<String> = records
                .iter()
                .filter_map(|r| serde_json::from_slice::<Record>(&r.json).ok())
                .flat_map(|r| functions_of(r.item))
                .map(|f| f.symbol)
                .collect();
            let index = match other {
                RecordEdit::ItemKind(i, ..)
                | RecordEdit::FunctionKind(i, ..)
                | RecordEdit::Receiver(i, ..)
                | RecordEdit::Type(i, ..)
                | RecordEdit::Symbol(i, ..)
                | RecordEdit::RenameClass(i, ..)
                | RecordEdit::IdentityMode(i, ..)
                | RecordEdit::JsName(i, ..) => pick(i),
                _ => unreachable!("handled above"),
            };
            let Ok(mut record) = serde_json::from_slice::<Record>(&records[index].json) else {
                return;
            };
            edit_record(&mut record, other, &classes, &symbols);
            records[index].json = serde_json::to_vec(&record).expect("records serialize");
        }
    }
    *payload = join_records(&records);
}

fn functions_of(item: Item) -> Vec<bridge_schema::Function> {
    match item {
        Item::Impl(i) => i.members,
        Item::Function(f) => vec![f],
        Item::Class(_) | Item::Import(_) | Item::Record(_) | Item::Enum(_) | Item::JsType(_) => {
            Vec::new()
        }
    }
}

fn name(n: u8, real: &[String]) -> String {
    let n = usize::from(n);
    if n < real.len() * 4 {
        real[n % real.len()].clone()
    } else {
        NAMES[n % NAMES.len()].to_string()
    }
}

fn ty(shape: &TyGen, classes: &[String]) -> Ty {
    // Every scalar of the table, and the other leaves.
    const OTHERS: [Ty; 4] = [Ty::Unit, Ty::String, Ty::Str, Ty::JsValue];
    match shape {
        TyGen::Leaf(i) => {
            let i = usize::from(*i) % (Scalar::ALL.len() + OTHERS.len());
            Scalar::ALL
                .get(i)
                .map_or_else(|| OTHERS[i - Scalar::ALL.len()].clone(), |s| s.ty())
        }
        TyGen::Class(n, kind) => {
            let class = name(*n, classes);
            match kind % 3 {
                0 => Ty::Named(class),
                1 => Ty::ClassRef(class),
                _ => Ty::ClassMut(class),
            }
        }
        TyGen::Option(t) => Ty::Option(Box::new(ty(t, classes))),
        TyGen::Vec(t) => Ty::Vec(Box::new(ty(t, classes))),
    }
}

/// The j-th function of a record, if it has any.
fn function_mut(record: &mut Record, j: u8) -> Option<&mut bridge_schema::Function> {
    match &mut record.item {
        Item::Function(f) => Some(f),
        Item::Impl(i) if !i.members.is_empty() => {
            let n = i.members.len();
            Some(&mut i.members[usize::from(j) % n])
        }
        _ => None,
    }
}

fn edit_record(record: &mut Record, edit: &RecordEdit, classes: &[String], symbols: &[String]) {
    const KINDS: [FunctionKind; 6] = [
        FunctionKind::Free,
        FunctionKind::Constructor,
        FunctionKind::Method,
        FunctionKind::Static,
        FunctionKind::Getter,
        FunctionKind::Setter,
    ];
    const RECEIVERS: [Receiver; 3] = [Receiver::None, Receiver::Shared, Receiver::Exclusive];
    match edit {
        RecordEdit::ItemKind(_, k) => {
            let type_id = match &record.item {
                Item::Class(c) => c.type_id.clone(),
                Item::Impl(i) => i.class.clone(),
                Item::Function(f) => f.symbol.clone(),
                Item::Import(i) => i.symbol.clone(),
                Item::Record(d) => d.type_id.clone(),
                Item::Enum(d) => d.type_id.clone(),
                Item::JsType(d) => d.type_id.clone(),
            };
            let name = type_id.rsplit(':').next().unwrap_or_default().to_string();
            let functions = functions_of(record.item.clone());
            record.item = match k % 5 {
                0 => Item::Class(bridge_schema::Class {
                    type_id,
                    rust_name: name.clone(),
                    name,
                    identity_mode: None,
                    inspectable: false,
                    doc: String::new(),
                }),
                1 => Item::Impl(bridge_schema::Impl {
                    class: type_id,
                    members: functions.clone(),
                }),
                2 => Item::Record(bridge_schema::RecordDef {
                    type_id,
                    rust_name: name.clone(),
                    name,
                    fields: Vec::new(),
                    doc: String::new(),
                }),
                3 => Item::Enum(bridge_schema::EnumDef {
                    type_id,
                    rust_name: name.clone(),
                    name,
                    variants: Vec::new(),
                    doc: String::new(),
                    repr: None,
                    untagged: false,
                    fallback: false,
                }),
                _ => match functions.into_iter().next() {
                    Some(f) => Item::Function(f),
                    None => return,
                },
            };
        }
        RecordEdit::FunctionKind(_, j, k) => {
            if let Some(f) = function_mut(record, *j) {
                f.kind = KINDS[usize::from(*k) % KINDS.len()];
            }
        }
        RecordEdit::Receiver(_, j, k) => {
            if let Some(f) = function_mut(record, *j) {
                f.receiver = RECEIVERS[usize::from(*k) % RECEIVERS.len()];
            }
        }
        RecordEdit::Type(_, j, t) => {
            let t = ty(t, classes);
            if let Some(f) = function_mut(record, *j) {
                if f.params.is_empty() {
                    f.ret = t;
                } else {
                    let n = f.params.len();
                    f.params[usize::from(*j) % n].ty = t;
                }
            }
        }
        RecordEdit::Symbol(_, j, k) => {
            let symbol = name(*k, symbols);
            if let Some(f) = function_mut(record, *j) {
                f.symbol = symbol;
            }
        }
        RecordEdit::RenameClass(_, k) => {
            let new = name(*k, classes);
            match &mut record.item {
                Item::Class(c) => c.type_id = new,
                Item::Impl(i) => i.class = new,
                Item::Record(d) => d.type_id = new,
                Item::Enum(d) => d.type_id = new,
                Item::JsType(d) => d.type_id = new,
                Item::Function(_) | Item::Import(_) => {}
            }
        }
        RecordEdit::IdentityMode(_, mode) => {
            if let Item::Class(c) = &mut record.item {
                c.identity_mode = Some(mode.to_string());
            }
        }
        RecordEdit::JsName(_, j, k) => {
            let new = name(*k, symbols);
            if let Some(f) = function_mut(record, *j) {
                f.js_name = new;
            }
        }
        RecordEdit::Drop(_)
        | RecordEdit::Repeat(_)
        | RecordEdit::Version(..)
        | RecordEdit::RawJson(..) => {}
    }
}

fn edit_wasm(bytes: Vec<u8>, edit: &WasmEdit) -> Vec<u8> {
    let Ok(mut module) = walrus::Module::from_buffer(&bytes) else {
        return bytes;
    };
    match edit {
        WasmEdit::RemoveExport(i) => {
            let ids: Vec<_> = module.exports.iter().map(|e| e.id()).collect();
            if ids.is_empty() {
                return bytes;
            }
            module.exports.delete(ids[usize::from(*i) % ids.len()]);
        }
        WasmEdit::ExportGlobalInstead(i) => {
            let funcs: Vec<_> = module
                .exports
                .iter()
                .filter(|e| matches!(e.item, walrus::ExportItem::Function(_)))
                .map(|e| (e.id(), e.name.clone()))
                .collect();
            if funcs.is_empty() {
                return bytes;
            }
            let (id, name) = funcs[usize::from(*i) % funcs.len()].clone();
            module.exports.delete(id);
            let global = module.globals.add_local(
                walrus::ValType::I32,
                false,
                false,
                walrus::ConstExpr::Value(walrus::ir::Value::I32(0)),
            );
            module.exports.add(&name, global);
        }
        WasmEdit::RetypeIdentityImport(i, signature) => {
            let hooks: Vec<_> = module
                .imports
                .iter()
                .filter(|imp| imp.module == bridge_schema::IDENTITY_IMPORT_MODULE)
                .filter_map(|imp| match imp.kind {
                    walrus::ImportKind::Function(f) => Some(f),
                    _ => None,
                })
                .collect();
            if hooks.is_empty() {
                return bytes;
            }
            let func = hooks[usize::from(*i) % hooks.len()];
            let ty = signature_type(&mut module, *signature);
            if let walrus::FunctionKind::Import(imported) = &mut module.funcs.get_mut(func).kind {
                // The callers still pass the old arguments: the result may not validate,
                // which the post-process must report, not trip over.
                imported.ty = ty;
            }
        }
        WasmEdit::StrayIdentityImport(k) => {
            let ty = signature_type(&mut module, 1);
            module.add_import_func(
                bridge_schema::IDENTITY_IMPORT_MODULE,
                NAMES[usize::from(*k) % NAMES.len()],
                ty,
            );
        }
    }
    module.emit_wasm()
}

fn signature_type(module: &mut walrus::Module, which: u8) -> walrus::TypeId {
    use walrus::ValType::{I32, I64};
    let (params, results): (&[walrus::ValType], &[walrus::ValType]) = match which % 5 {
        0 => (&[], &[]),
        1 => (&[I32], &[I32]),
        2 => (&[I32], &[]),
        3 => (&[I64], &[I64]),
        _ => (&[I32, I32, I32], &[I32]),
    };
    module.types.add(params, results)
}
