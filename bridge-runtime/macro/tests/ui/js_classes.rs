// Imported JS classes (`pub type T;` in #[bridge] extern blocks) and their members.
use bridge_runtime::bridge;

#[bridge]
extern "C" {
    pub type Thing;

    pub type Generic<T>;

    #[bridge(method)]
    pub type WithMethod;

    #[cfg_attr(all(), bridge(js_name = "X"))]
    pub type Conditional;

    #[bridge(js_name = "")]
    pub type Nameless;

    #[bridge(constructor, method)]
    fn two_roles(this: &Thing) -> Thing;

    #[bridge(getter)]
    fn getter_alone(this: &Thing) -> u32;

    #[bridge(method, getter, setter)]
    fn both(this: &Thing) -> u32;

    #[bridge(static_method_of = Thing, getter)]
    fn static_getter() -> u32;

    #[bridge(constructor)]
    fn makes_nothing(x: u32) -> u32;

    #[bridge(method)]
    fn no_this(x: u32) -> u32;

    #[bridge(static_method_of = Elsewhere)]
    fn elsewhere() -> u32;

    #[bridge(static_method_of = a::b)]
    fn path_class() -> u32;

    #[bridge(method, js_name = "")]
    fn empty_member(this: &Thing);

    #[bridge(method, getter)]
    fn getter_with_arg(this: &Thing, x: u32) -> u32;

    #[bridge(method, setter)]
    fn set_returns(this: &Thing, v: u32) -> u32;

    static mut WRITABLE: u32;

    #[bridge(method)]
    static ROLE: u32;

    #[bridge(js_name = "")]
    static NAMELESS: u32;

    #[cfg_attr(all(), bridge(js_name = "y"))]
    static CONDITIONAL: u32;

    static BORROWED: &'static str;
}

#[bridge]
extern "C" {
    #[bridge(typescript_type = "{ x: number }")]
    pub type TypedClass;

    #[bridge(structural, typescript_type = " ")]
    pub type BlankType;

    #[bridge(structural)]
    pub type Shape;

    #[bridge(constructor)]
    fn new() -> Shape;

    #[bridge(static_method_of = Shape)]
    fn make() -> Shape;

    #[bridge(typescript_type = "number")]
    fn typed_fn() -> u32;

    #[bridge(structural)]
    static STRUCTURAL: u32;

    #[bridge(method, structural)]
    fn fine(this: &Shape) -> u32;
}

fn main() {}
