#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlMatch

/// Replacing every match in a file, as a library: what an editor's "replace in files" and the
/// `trawl replace --write` command both run (over a tree: ``TreeSearch/replace(_:writes:receive:)``).
/// The file is read, its replacement plan streamed to a new file, and the new file switched in
/// atomically (``AtomicFile``); results are values, never printed text.
public struct FileReplacement: Sendable {
    /// What is replaced.
    public let matcher: any Matcher
    /// What replaces it (already parsed against the matcher's groups).
    public let template: ReplacementTemplate
    /// What a write may do to files with several links.
    public var policy: WritePolicy

    /// A replacement of `matcher`'s matches by `template`.
    public init(matcher: any Matcher, template: ReplacementTemplate, policy: WritePolicy = WritePolicy()) {
        self.matcher = matcher
        self.template = template
        self.policy = policy
    }

    /// What happened to one file.
    public enum Outcome: Sendable {
        /// The matches were replaced; notes say what could not be kept (an owner, say).
        case replaced(count: Int, notes: [String])
        /// The changes a write would make (nothing was written).
        case planned([ReplacementPlan.Change])
        /// Nothing matched; the file was not written.
        case unchanged
        /// The file was not searched (binary, not UTF-8, UTF-16, not a regular file, unreadable).
        case skipped(FileSkip)
        /// The file is left as it was: the write was refused (``WriteFailure``) or the pattern
        /// failed on it (``MatchError``).
        case failed(any Error & Sendable)
    }

    /// A file and what happened to it.
    public struct Result: Sendable {
        /// The file, as the walk found it.
        public let path: FilePath
        /// What happened to it.
        public let outcome: Outcome
    }

    /// The changes replacing the matches would make in a walked file; nothing is written.
    public func plan(for file: WalkedFile) -> Outcome {
        switch FileContent.read(file, for: .rewrite) {
        case .failure(let skip): return .skipped(skip)
        case .success(let content):
            do {
                let changes = try ReplacementPlan(matching: matcher, in: content.text, template: template).changes
                return changes.isEmpty ? .unchanged : .planned(changes)
            } catch {
                return .failed(error)
            }
        }
    }

    /// Replaces the matches in the file at `path` (links followed).
    public func apply(to path: FilePath) -> Outcome {
        apply(to: WalkedFile(path: path, isExplicit: true))
    }

    /// Replaces the matches in a walked file (read and written from its anchor without following
    /// links, when it has one).
    public func apply(to file: WalkedFile) -> Outcome {
        switch FileContent.read(file, for: .rewrite) {
        case .failure(let skip): return .skipped(skip)
        case .success(let content):
            do {
                let (count, notes) = try apply(to: content, at: file)
                return count == 0 ? .unchanged : .replaced(count: count, notes: notes)
            } catch let error as WriteFailure {
                return .failed(error)
            } catch let error as MatchError {
                return .failed(error)
            } catch {
                return .failed(WriteFailure.system(operation: "replace", reason: "\(error)"))
            }
        }
    }

    /// Replaces the matches in `content`, read from `path` for rewriting, and returns how many
    /// there were (0: nothing was written) with the write's notes. The changes stream from the
    /// matcher to the new file: memory does not grow with their number.
    /// - Throws: ``MatchError`` or ``WriteFailure``; the file is then as it was.
    public func apply(to content: FileContent, at path: FilePath) throws -> (count: Int, notes: [String]) {
        try apply(to: content, at: WalkedFile(path: path, isExplicit: true))
    }

    /// Replaces the matches in `content`, read from the walked `file` for rewriting, as
    /// ``apply(to:at:)-(_,FilePath)`` does, writing it from its anchor when it has one.
    public func apply(to content: FileContent, at file: WalkedFile) throws -> (count: Int, notes: [String]) {
        guard let hash = content.hash else {
            throw WriteFailure.system(operation: "replace", reason: "the content was not read for rewriting")
        }
        // No temporary file for a file without a match.
        guard try matcher.firstMatch(in: content.text) != nil else { return (0, []) }
        var count = 0
        let notes = try content.text.withBytes { bytes in
            try AtomicFile.replace(file, expecting: content.snapshot, hash: hash, policy: policy) { writer in
                try writer.write(content.byteOrderMark)
                count = try ReplacementPlan.writeReplacing(matching: matcher, in: content.text, bytes: bytes, template: template) { piece in
                    try writer.write(piece)
                }
            }
        }
        return (count, notes)
    }

    /// A walk filter that leaves out trawl's temporary files (and removes those of runs that died,
    /// when asked), before any filter of the caller's.
    public static func temporaryFileFilter(removingLeftovers: Bool,
                                           then next: (@Sendable (FilePath, [UInt8]) -> Bool)? = nil) -> @Sendable (FilePath, [UInt8]) -> Bool {
        { path, name in
            if AtomicFile.isTemporaryName(name) {
                if removingLeftovers && AtomicFile.isStaleTemporary(name) { _ = path.withPlatformString { unlink($0) } }
                return true
            }
            return next?(path, name) ?? false
        }
    }
}
