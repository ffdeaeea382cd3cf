//! `#[bridge]` on an impl block and on a free function: the item, a thunk per export and
//! the record(s).

use super::configured::configured;
use super::{record, thunk};
use crate::model::functions::{Export, FreeFunction, ImplBlock, Member, OwnExport};
use crate::model::refs::RecordSection;
use proc_macro2::TokenStream;
use quote::quote;

pub fn impl_block(block: &ImplBlock) -> TokenStream {
    let item = &block.item;
    let exports = members(&block.members, &block.record);
    quote! {
        #item
        #exports
    }
}

/// The thunks of an impl block's `members` and its `record`.
pub fn members(members: &[Member], record: &RecordSection) -> TokenStream {
    let thunks = members.iter().map(|m| match m {
        Member::InBlock(spec) => thunk::thunk(spec),
        Member::Own(own) => own_export(own),
        Member::Configured(c) => {
            configured(c, |own| own.as_ref().map(own_export).unwrap_or_default())
        }
    });
    let record = record::emit(record);
    quote! {
        const _: () = {
            #(#thunks)*
            #record
        };
    }
}

/// A thunk and its record, under the member's `#[cfg]`s.
fn own_export(own: &OwnExport) -> TokenStream {
    let cfgs = &own.cfgs;
    let export = export(&own.export);
    quote! {
        #(#cfgs)*
        #export
    }
}

/// `const _: () = { <thunk> <record> };`
fn export(export: &Export) -> TokenStream {
    let thunk = thunk::thunk(&export.thunk);
    let record = record::emit(&export.record);
    quote! {
        const _: () = {
            #thunk
            #record
        };
    }
}

pub fn free_fn(f: &FreeFunction) -> TokenStream {
    let item = &f.item;
    let exports = configured(&f.exports, |e| e.as_ref().map(export).unwrap_or_default());
    quote! {
        #item
        #exports
    }
}
