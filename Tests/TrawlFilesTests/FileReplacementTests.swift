import Foundation
import SystemPackage
import Testing
import TrawlFiles
import TrawlMatch

/// Batch replace as a library: every file of a tree, results in walk order as values, each file
/// written as the replacement plan says or left as it was with the reason.
@Suite struct FileReplacementTests {
    func makeTree() throws -> URL {
        let top = try temporaryFolder("batch")
        let files: [(String, [UInt8])] = [
            ("a.txt", Array("alpha beta alpha\n".utf8)), ("b/none.txt", Array("nothing here\n".utf8)),
            ("b/bin.dat", Array("alpha".utf8) + [0] + Array("alpha".utf8)), ("c.txt", [0xEF, 0xBB, 0xBF] + Array("alpha\r\n".utf8)),
            ("locked.txt", Array("alpha\n".utf8)),
        ]
        for (name, bytes) in files {
            let url = top.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        #expect(chmod(top.appendingPathComponent("locked.txt").path, 0o444) == 0)
        return top
    }

    func describe(_ outcome: FileReplacement.Outcome) -> String {
        switch outcome {
        case .replaced(let count, _): "replaced \(count)"
        case .planned(let changes): "planned \(changes.count)"
        case .unchanged: "unchanged"
        case .skipped(let skip): "skipped \(skip)"
        case .failed(let error): "failed \(error)"
        }
    }

    @Test func aTreeIsReplacedFileByFileInWalkOrder() throws {
        let top = try makeTree()
        let matcher = try RegexMatcher("alpha")
        let replacement = FileReplacement(matcher: matcher, template: try matcher.template("omega"))
        var results: [(String, String)] = []
        let walked = TreeSearch(WalkedFiles([FilePath(top.path)])).replace(replacement) { result in
            results.append((String(result.path.string.dropFirst(top.path.count + 1)), describe(result.outcome)))
        }
        #expect(walked.walk.errors.isEmpty)
        #expect(results.map(\.0) == ["a.txt", "b/bin.dat", "b/none.txt", "c.txt", "locked.txt"])
        #expect(results.map(\.1) == ["replaced 2", "skipped binary file (NUL byte at offset 5); skipped, left untouched", "unchanged",
                                     "replaced 1", "failed read-only file; left untouched"])
        #expect(try Data(contentsOf: top.appendingPathComponent("a.txt")) == Data("omega beta omega\n".utf8))
        #expect(try Data(contentsOf: top.appendingPathComponent("c.txt")) == Data([0xEF, 0xBB, 0xBF] + Array("omega\r\n".utf8)))
        #expect(try Data(contentsOf: top.appendingPathComponent("locked.txt")) == Data("alpha\n".utf8))
    }

    @Test func theResultsAlsoComeAsAnAsyncSequence() async throws {
        let top = try makeTree()
        let matcher = try RegexMatcher("(al)pha")
        let replacement = FileReplacement(matcher: matcher, template: try matcher.template("${1}PHA"))
        var outcomes: [String] = []
        for await result in TreeSearch(WalkedFiles([FilePath(top.path)])).replacements(replacement) {
            outcomes.append(describe(result.outcome))
        }
        #expect(outcomes.count == 5)
        #expect(outcomes.first == "replaced 2")
        #expect(try Data(contentsOf: top.appendingPathComponent("a.txt")) == Data("alPHA beta alPHA\n".utf8))
    }
}

extension FileReplacementTests {
    /// A search whose task is cancelled (as ``TreeSearch/replacements(_:writes:)`` does when its
    /// consumer stops listening) touches no further file: those in the hands of workers are
    /// wholly replaced, the rest left as they were.
    @Test func cancellingTheTaskStopsTheSearch() async throws {
        let top = try temporaryFolder("stop")
        let names = (0..<600).map { "f\($0 + 1000).txt" }
        for name in names { try Data("alpha\n".utf8).write(to: top.appendingPathComponent(name)) }
        let replacement = FileReplacement(matcher: try LiteralMatcher("alpha"), template: ReplacementTemplate(literal: "omega"))
        let seen = await Task.detached {
            var seen = 0
            _ = TreeSearch(WalkedFiles([FilePath(top.path)])).replace(replacement) { _ in
                seen += 1
                withUnsafeCurrentTask { $0?.cancel() } // the consumer stops listening after one result
            }
            return seen
        }.value
        let contents = try names.map { try Data(contentsOf: top.appendingPathComponent($0)) }
        #expect(seen == 1)
        #expect(contents.allSatisfy { $0 == Data("omega\n".utf8) || $0 == Data("alpha\n".utf8) })
        let rewritten = contents.filter { $0 == Data("omega\n".utf8) }.count
        // At most the batch in the workers' hands (64 files) besides the first.
        #expect(rewritten >= 1 && rewritten <= 65, "\(rewritten) files rewritten")
        #expect(contents.first == Data("omega\n".utf8))
    }
}
