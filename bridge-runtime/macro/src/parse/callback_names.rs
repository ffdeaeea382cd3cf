//! The names the `.d.ts` gives a JS function type's parameters (schema
//! `Callback::names`), read off the body: a callback parameter's first call's arguments,
//! a returned closure literal's parameters.

use proc_macro2::Ident;

/// The parameter names of the closure `body` returns (its tail expression, through
/// `Box::new(..)`, `Ok(..)` or `Some(..)`), camelCased; empty if it returns none.
pub fn returned_closure_names(body: &syn::Block, arity: usize) -> Vec<String> {
    let Some(syn::Stmt::Expr(tail, None)) = body.stmts.last() else {
        return Vec::new();
    };
    let mut e: &syn::Expr = tail;
    loop {
        e = match e {
            syn::Expr::Return(r) => match &r.expr {
                Some(inner) => inner,
                None => return Vec::new(),
            },
            syn::Expr::Paren(p) => &p.expr,
            syn::Expr::Call(c) if c.args.len() == 1 => &c.args[0],
            syn::Expr::Closure(c) if c.inputs.len() == arity => {
                return c.inputs.iter().map(pattern_name).collect();
            }
            _ => return Vec::new(),
        };
    }
}

/// The names a callback parameter `param` of `body` is first called with
/// (`f(index, &label)`: `index`, `label`), camelCased; empty if it is never called with
/// any plain names.
pub fn call_argument_names(body: &syn::Block, param: &Ident, arity: usize) -> Vec<String> {
    struct Calls<'a> {
        param: &'a Ident,
        arity: usize,
        found: Option<Vec<String>>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Calls<'_> {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if self.found.is_none()
                && call.args.len() == self.arity
                && matches!(&*call.func, syn::Expr::Path(p) if p.path.is_ident(self.param))
            {
                let names: Vec<String> = call.args.iter().map(argument_name).collect();
                if names.iter().any(|n| !n.is_empty()) {
                    self.found = Some(names);
                }
            }
            syn::visit::visit_expr_call(self, call);
        }
    }
    let mut calls = Calls {
        param,
        arity,
        found: None,
    };
    syn::visit::Visit::visit_block(&mut calls, body);
    calls.found.unwrap_or_default()
}

/// The name an argument expression shows: `x`, `&x`, `*x`, `x.clone()`, `self.x`.
fn argument_name(e: &syn::Expr) -> String {
    match e {
        syn::Expr::Path(p) => p.path.get_ident().map(js_param_name).unwrap_or_default(),
        syn::Expr::Reference(r) => argument_name(&r.expr),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => argument_name(&u.expr),
        syn::Expr::Paren(p) => argument_name(&p.expr),
        syn::Expr::MethodCall(m) if m.args.is_empty() => argument_name(&m.receiver),
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => js_param_name(n),
            syn::Member::Unnamed(_) => String::new(),
        },
        _ => String::new(),
    }
}

fn pattern_name(p: &syn::Pat) -> String {
    match p {
        syn::Pat::Ident(i) => js_param_name(&i.ident),
        syn::Pat::Type(t) => pattern_name(&t.pat),
        _ => String::new(),
    }
}

/// A parameter's JS name, as for exports (`_unused` → `unused`, `r#type` → `type`).
fn js_param_name(ident: &Ident) -> String {
    use syn::ext::IdentExt;
    super::attrs::camel_case(ident.unraw().to_string().trim_start_matches('_'))
}
