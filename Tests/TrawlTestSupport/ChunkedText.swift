import TrawlMatch

/// Text cut into chunks of arbitrary sizes, for tests that check results never depend on chunk
/// boundaries. Each chunk must hold whole scalars.
public final class ChunkedText: SearchableText, @unchecked Sendable {
    public let chunks: [UnsafeBufferPointer<UInt8>]
    public let starts: [Int]
    public let utf8Count: Int

    public init(chunks: [[UInt8]]) {
        let kept = chunks.filter { !$0.isEmpty }
        self.chunks = kept.map { chunk in
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunk.count)
            _ = copy.initialize(from: chunk)
            return UnsafeBufferPointer(copy)
        }
        var starts: [Int] = []
        var offset = 0
        for chunk in kept {
            starts.append(offset)
            offset += chunk.count
        }
        self.starts = starts
        utf8Count = offset
    }

    deinit { chunks.forEach { $0.deallocate() } }

    private func chunkIndex(containing offset: Int) -> Int {
        var low = 0, high = starts.count
        while low + 1 < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle } else { high = middle }
        }
        return low
    }

    private func clipped(_ index: Int, to range: Range<Int>) -> TextChunk {
        let lower = max(range.lowerBound, starts[index]), upper = min(range.upperBound, starts[index] + chunks[index].count)
        return TextChunk(offset: lower, bytes: UnsafeBufferPointer(rebasing: chunks[index][(lower - starts[index])..<(upper - starts[index])]),
                         owner: self)
    }

    public struct Forward: IteratorProtocol {
        let text: ChunkedText
        let range: Range<Int>
        var index: Int
        public mutating func next() -> TextChunk? {
            guard !range.isEmpty, index < text.chunks.count, text.starts[index] < range.upperBound else { return nil }
            defer { index += 1 }
            return text.clipped(index, to: range)
        }
    }

    public struct Backward: IteratorProtocol {
        let text: ChunkedText
        let range: Range<Int>
        var index: Int
        public mutating func next() -> TextChunk? {
            guard !range.isEmpty, index >= 0, text.starts[index] + text.chunks[index].count > range.lowerBound else { return nil }
            defer { index -= 1 }
            return text.clipped(index, to: range)
        }
    }

    public func chunks(forwardIn range: Range<Int>) -> Forward {
        Forward(text: self, range: range, index: range.isEmpty ? chunks.count : chunkIndex(containing: range.lowerBound))
    }

    public func chunks(backwardIn range: Range<Int>) -> Backward {
        Backward(text: self, range: range, index: range.isEmpty ? -1 : chunkIndex(containing: range.upperBound - 1))
    }

    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? { nil }
}
