import SystemPackage
import TrawlMatch

extension TreeSearch {
    /// Replaces `replacement`'s matches in every file (or, with `writes` false, plans the
    /// changes and writes nothing), and hands each file's result to `receive` in walk order.
    /// Files are read and written in parallel, each atomically from its folder's descriptor.
    /// trawl's own temporary files are never touched. Returns the walk's problems, with those
    /// of the versions the writes displaced (``DisplacedFiles``).
    ///
    /// This is what `trawl replace --write` (or, without writing, `trawl replace --json`) does,
    /// as values.
    public func replace(_ replacement: FileReplacement, writes: Bool = true,
                        receive: (FileReplacement.Result) -> Void) -> FilesToReadSummary {
        // The versions the writes displace are held to the end: writes made to them meanwhile
        // (by a program that had a file open) are kept aside and reported.
        var holding = replacement
        let displaced = replacement.policy.displacedFiles ?? DisplacedFiles()
        holding.policy.displacedFiles = displaced
        let replacer = holding
        let searchFile: @Sendable (WalkedFile, FileSkip?) -> FileReplacement.Result? = { file, recordedSkip in
            if let name = file.path.lastComponent?.string, AtomicFile.isTemporaryName(Array(name.utf8)) { return nil }
            if let recordedSkip { return FileReplacement.Result(path: file.path, outcome: .skipped(recordedSkip)) }
            return FileReplacement.Result(path: file.path, outcome: writes ? replacer.apply(to: file) : replacer.plan(for: file))
        }
        var summary = run(searchingEach: searchFile) { result in
            if let result { receive(result) }
        }
        summary.walk.errors += displaced.settle()
        return summary
    }

    /// The results of ``replace(_:writes:receive:)`` as an asynchronous sequence, produced on a
    /// task of their own. When the consumer stops listening (breaks out of its loop, or its task
    /// is cancelled) the search stops: files in the hands of workers are wholly replaced or left
    /// as they were, and no further file is touched.
    public func replacements(_ replacement: FileReplacement, writes: Bool = true) -> AsyncStream<FileReplacement.Result> {
        let search = self
        return AsyncStream { continuation in
            let task = Task.detached {
                _ = search.replace(replacement, writes: writes) { continuation.yield($0) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
