// #[cfg_attr(p, bridge(..))]: the macro expands each configuration.
use bridge_runtime::bridge;

#[bridge]
pub struct Widget {
    value: u32,
}

#[bridge]
impl Widget {
    #[cfg_attr(feature = "a", bridge(js_name = "a"))]
    #[cfg_attr(feature = "b", bridge(js_name = "b"))]
    #[cfg_attr(feature = "c", bridge(js_name = "c"))]
    #[cfg_attr(feature = "d", bridge(js_name = "d"))]
    #[cfg_attr(feature = "e", bridge(js_name = "e"))]
    pub fn many(&self) -> u32 {
        self.value
    }
}

#[bridge]
impl Widget {
    #[cfg_attr = "x"]
    pub fn not_a_list(&self) -> u32 {
        self.value
    }
}

#[bridge]
impl Widget {
    // The conflict exists where the predicate holds: reported under its cfg.
    #[cfg_attr(all(), bridge(js_name = "c"))]
    #[bridge(js_name = "d")]
    pub fn conditional_names(&self) -> u32 {
        self.value
    }
}

fn main() {}
