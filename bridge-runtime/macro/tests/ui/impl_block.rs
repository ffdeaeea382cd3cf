// #[bridge] on impl blocks, and what a member's attributes and signature may say.
use bridge_runtime::bridge;

#[bridge]
pub struct Widget {
    value: u32,
}

pub trait Named {
    fn name(&self) -> u32;
}

#[bridge(identity_mode = "none")]
impl Widget {
    pub fn args(&self) -> u32 {
        self.value
    }
}

#[bridge]
impl Named for Widget {
    fn name(&self) -> u32 {
        self.value
    }
}

#[bridge]
impl &Widget {
    pub fn reference(&self) -> u32 {
        self.value
    }
}

#[bridge]
impl Widget {
    #[bridge(skip, getter)]
    pub fn skipped_getter(&self) -> u32 {
        self.value
    }

    #[bridge(js_name = "hidden")]
    fn private_named(&self) -> u32 {
        self.value
    }

    #[bridge(constructor)]
    pub fn new() -> Widget {
        Widget { value: 0 }
    }

    #[bridge(constructor)]
    pub fn other() -> Widget {
        Widget { value: 1 }
    }

    #[bridge(getter)]
    pub fn getter_with_args(&self, x: u32) -> u32 {
        self.value + x
    }

    #[bridge(setter)]
    pub fn set_returning(&mut self, value: u32) -> u32 {
        self.value = value;
        value
    }

    pub fn release(&self) {}

    #[bridge(js_name = "constructor")]
    pub fn made(&self) {}

    pub fn name() -> u32 {
        0
    }

    #[bridge(exported)]
    pub fn unknown_arg(&self) {}

    #[bridge(getter, setter)]
    pub fn two_roles(&self) -> u32 {
        self.value
    }

    #[bridge(getter = "a", getter = "b")]
    pub fn two_names(&self) -> u32 {
        self.value
    }

    #[bridge(js_name = "get-value")]
    pub fn not_identifier(&self) -> u32 {
        self.value
    }

    pub fn by_value(self) -> u32 {
        self.value
    }

    pub fn boxed(self: Box<Self>) -> u32 {
        self.value
    }

    pub fn generic<T>(&self, _t: T) {}

    pub unsafe fn dangerous(&self) {}

    pub async fn later(&self) {}
}

#[bridge]
impl Widget {
    #[bridge(constructor)]
    pub fn not_made(&self) -> u32 {
        self.value
    }
}

fn main() {}
