/// Keeps `value` alive until the process ends, for what a command builds in its last step:
/// freeing a catalog of a million items piece by piece, just before the process exits, took
/// half a second of its build, and the system takes the memory back at once (compilers skip
/// freeing before exit the same way). The reference is deliberately never released.
func keepUntilExit<Value>(_ value: Value) {
    _ = Unmanaged.passRetained(RetainedUntilExit(value))
}

private final class RetainedUntilExit<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
