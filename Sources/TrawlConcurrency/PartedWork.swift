import Dispatch

/// Buffers at least this large are worth splitting across the cores (a file's UTF-8 check, a
/// count): one core alone reads memory at about half the speed two do, and below this size the
/// threads cost more than they save.
package let partedWorkThreshold = 8 << 20

/// Runs `work` on consecutive parts of `0..<count` on the cores at hand and returns the results
/// in order. A part starts at `boundary(nominal)` (at or after its nominal start: where work may
/// begin, such as a line start); empty parts are dropped.
///
/// Used for one large buffer: a single core reads memory at about half the speed two do. There
/// are more parts than cores, so a part that finishes early does not leave a core idle.
package func inParts<Result: Sendable>(of count: Int, parts: Int = 8, boundary: (Int) -> Int,
                                      _ work: @Sendable (Range<Int>) -> Result) -> [Result] {
    var bounds = [0]
    for part in 1..<max(parts, 1) {
        let start = boundary(count * part / parts)
        if start > bounds[bounds.count - 1] && start < count { bounds.append(start) }
    }
    bounds.append(count)
    let ranges = (0..<bounds.count - 1).map { bounds[$0]..<bounds[$0 + 1] }
    let results = SlotArray<Result>(count: ranges.count)
    DispatchQueue.concurrentPerform(iterations: ranges.count) { part in results.set(part, work(ranges[part])) }
    return (0..<ranges.count).map { results.take($0)! }
}
