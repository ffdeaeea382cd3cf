// #[bridge::test]: what a test function may not be.
use bridge_runtime::bridge;

#[bridge::test(should_panic)]
fn with_arguments() {}

// Allowed: async tests and `Result<(), E>` results (no error below).
#[bridge::test]
async fn later() {}

#[bridge::test]
async fn later_result() -> Result<(), String> {
    Ok(())
}

#[bridge::test]
fn takes(x: u32) {
    let _ = x;
}

#[bridge::test]
fn generic<T>() {}

#[bridge::test]
fn returns() -> u32 {
    1
}

#[bridge::test]
unsafe fn dangerous() {}

fn main() {}
