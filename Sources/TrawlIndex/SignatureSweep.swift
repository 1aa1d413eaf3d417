#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// The signatures of many paths under one root as they are now: a `stat` each, on every core,
/// with one path buffer per thread. A listing checks tens of thousands of paths before a search
/// or a refresh; making a path value for each, and handing each to a worker, cost more than the
/// `stat` itself.
enum SignatureSweep {
    /// The signature now (links followed) of `prefix + path(index)` for each index below `count`,
    /// `nil` where it cannot be stat'ed. `path` is called from several threads at once.
    static func current(prefix: [UInt8], count: Int, path: @Sendable (Int) -> [UInt8]) -> [FileSignature?] {
        guard count > 0 else { return [] }
        // Enough parts that a slow one (a folder not cached) does not leave a core idle.
        let parts = min(32, max(1, count / 256))
        return [FileSignature?](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let results = buffer
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                var pathBuffer = prefix
                pathBuffer.reserveCapacity(prefix.count + 256)
                for index in (count * part / parts)..<(count * (part + 1) / parts) {
                    pathBuffer.removeSubrange(prefix.count...)
                    pathBuffer += path(index)
                    pathBuffer.append(0)
                    var status = stat()
                    let result = pathBuffer.withUnsafeBufferPointer { bytes in
                        bytes.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) }
                    }
                    (results.baseAddress! + index).initialize(to: result == 0 ? FileSignature(status) : nil)
                }
            }
            initialized = count
        }
    }
}
