import Synchronization
import TrawlConcurrency

/// What a ``TreeSearch`` hands each file to and its results to: the work of one file, done on
/// worker threads in parallel, and the consumer of each file's result, called on the searching
/// thread in walk order. Printers, collectors and replacers are sinks.
public protocol TreeSearchSink {
    associatedtype FileResult: Sendable
    /// The work of one file (reading it, searching it, rendering what it holds), called on worker
    /// threads. `recordedSkip` is why the search skips the file unread, as an index recorded it.
    var searchFile: @Sendable (_ file: WalkedFile, _ recordedSkip: FileSkip?) -> FileResult { get }
    /// Receives each file's result, in walk order, on the thread that runs the search.
    mutating func receive(_ result: FileResult)
    /// Whether the sink wants no more results: files not yet searched are then left alone.
    var isFinished: Bool { get }
}

extension TreeSearchSink {
    /// A sink takes every result unless it says otherwise.
    public var isFinished: Bool { false }
}

/// A search over the files of a tree: the files come from a walk, a tree's index or its
/// watcher (``FilesToRead``), are searched in parallel, and their results reach a sink in walk
/// order, so output is deterministic. `trawl find`, `trawl replace` and an editor's project-wide
/// search all run on it.
public struct TreeSearch<Files: FilesToRead>: Sendable {
    /// Where the files come from.
    public let files: Files

    /// A search of the files `files` gives.
    public init(_ files: Files) { self.files = files }

    /// Searches every file to read with `sink`, and hands each result to it in walk order.
    /// Files an index rules out are not handed over: they are counted in the summary.
    ///
    /// When the sink is finished, or the calling task is cancelled, no further file is searched:
    /// those already in the hands of workers are searched wholly (a replacement is written or
    /// not at all), and their results are dropped.
    public func run<Sink: TreeSearchSink>(into sink: inout Sink) -> FilesToReadSummary {
        let searchFile = sink.searchFile
        let files = self.files
        let stopped = StopFlag()
        var ruledOut = (files: 0, bytes: 0)
        var summary = processInOrder(inline: files.areFewAndSmall, produce: { visit in
            files.forEachFile(visit)
        }, work: { (item: Files.File) -> RuledOutOr<Sink.FileResult> in
            if stopped.isSet { return .dropped }
            if let size = item.sizeIfRuledOut() { return .ruledOut(bytes: size) }
            return .searched(searchFile(item.file, item.recordedSkip))
        }, consume: { outcome in
            guard !stopped.isSet else { return }
            switch outcome {
            case .ruledOut(let bytes):
                ruledOut.files += 1
                ruledOut.bytes += bytes
            case .searched(let result):
                sink.receive(result)
                if sink.isFinished || Task.isCancelled { stopped.set() }
            case .dropped:
                break
            }
        })
        summary.filesRuledOut += ruledOut.files
        summary.bytesRuledOut += ruledOut.bytes
        return summary
    }
}

/// A file's result, or the size of a file an index ruled out on the worker.
private enum RuledOutOr<Result: Sendable>: Sendable {
    case ruledOut(bytes: Int)
    case searched(Result)
    /// Not searched: the search stopped.
    case dropped
}

/// Set once, read by every worker.
private final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

extension TreeSearch {
    /// ``run(into:)`` with a sink's two parts given as closures: `searchFile` on worker threads,
    /// `receive` in walk order on this thread.
    public func run<Result: Sendable>(searchingEach searchFile: @escaping @Sendable (_ file: WalkedFile, _ recordedSkip: FileSkip?) -> Result,
                                      receive: (Result) -> Void) -> FilesToReadSummary {
        withoutActuallyEscaping(receive) { receive in
            var sink = ClosureSink(searchFile: searchFile, receiver: receive)
            return run(into: &sink)
        }
    }
}

/// A sink made of two closures.
private struct ClosureSink<FileResult: Sendable>: TreeSearchSink {
    let searchFile: @Sendable (WalkedFile, FileSkip?) -> FileResult
    let receiver: (FileResult) -> Void

    mutating func receive(_ result: FileResult) { receiver(result) }
}
