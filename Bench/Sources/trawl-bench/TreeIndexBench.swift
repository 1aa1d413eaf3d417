import Foundation
import BenchTestSupport

/// Group `index`, tree part: `trawl index` and `trawl find -l` with the index, whole process,
/// beside codesearch (`cindex`, `csearch -l`) and ripgrep (`rg -l`) on the same tree, file lists
/// checked against rg's; then a refresh after 10 files change, beside a build.
struct TreeIndexBench {
    var runs: Int
    /// The tree to index (the corpus's `tree/`), or `nil` for a generated one.
    var treePath: String?
    var report: Report

    static let queries: [(name: String, arguments: [String])] = [
        ("literal", ["EventLoopFuture"]), ("absent", ["ZebraQuokkaMatcher"]), ("regex", ["func\\s+\\w+Error\\("]),
        ("caseless", ["-i", "eventloopfuture"]), ("common", ["self"]),
    ]

    func run() throws {
        let trawl = try buildTrawl()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-bench-tree-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let tree: String
        if let treePath {
            tree = treePath
        } else {
            tree = scratch + "/tree"
            try generateTree(at: tree)
            report.note("index.tree: no --corpus DIR: a generated tree of 4,000 files")
        }
        let folder = tree + "/.trawl"
        let hadIndex = FileManager.default.fileExists(atPath: folder)
        defer { if !hadIndex { try? FileManager.default.removeItem(atPath: folder) } }
        let buildRuns = max(1, min(runs, 5))

        let build = try timeCommand("index.tree.build", [trawl, "index", tree], runs: buildRuns, report: report,
                                    before: { try? FileManager.default.removeItem(atPath: folder) })
        let stats = try runTool(trawl, ["index", "--stats", tree]).stdout
        report.note("index.tree: \(stats.trimmingCharacters(in: .whitespacesAndNewlines))")
        let indexBytes = try folderBytes(folder)
        let (treeBytes, textBytes) = try treeSizes(tree)
        report.add(Figure(name: "index.tree.size", unit: "% tree", samples: [Double(indexBytes) / Double(treeBytes) * 100]))
        report.note("index.tree.size: \(indexBytes) bytes; the tree \(treeBytes) bytes (\(textBytes) in the files trawl indexes: \(String(format: "%.1f", Double(indexBytes) / Double(textBytes) * 100))%)")

        let csearchIndex = scratch + "/csearchindex"
        let cindex = tool("cindex"), csearch = tool("csearch")
        if cindex == nil || csearch == nil { report.note("codesearch (cindex, csearch) is not installed: no codesearch figures (apt-get install codesearch)") }
        if let cindex, report.wantsPeer("index.tree.build.cindex") {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let theirs = try timeCommand("index.tree.build.cindex", [cindex, tree], runs: buildRuns, report: report,
                                         environment: ["CSEARCHINDEX": csearchIndex], before: { try? FileManager.default.removeItem(atPath: csearchIndex) })
            report.addRatio("index.tree.build.speedup_vs_cindex", theirs.figure, over: build.figure)
            let size = (try? FileManager.default.attributesOfItem(atPath: csearchIndex)[.size] as? Int) ?? 0
            report.add(Figure(name: "index.tree.size.cindex", unit: "% tree", samples: [Double(size) / Double(treeBytes) * 100]))
        }

        // Queries with a warm index; file lists compared with rg's (relative to the tree).
        func files(_ output: String) -> Set<String> {
            Set(output.split(separator: "\n").map { line in
                var path = String(line)
                if path.hasPrefix(tree + "/") { path.removeFirst(tree.count + 1) }
                return path
            })
        }
        var csearchFigures: [String: Figure] = [:]
        for (name, arguments) in TreeIndexBench.queries where report.wants("index.tree.find.\(name)") {
            let mine = try timeCommand("index.tree.find.\(name)", [trawl, "find", "-l"] + arguments + [tree], runs: runs, report: report)
            let ours = files(mine.output)
            if let rg = tool("rg"), report.wantsPeer("index.tree.find.\(name).rg") {
                let theirs = try timeCommand("index.tree.find.\(name).rg", [rg, "-l"] + arguments + [tree], runs: runs, report: report)
                report.addRatio("index.tree.find.\(name).speedup_vs_rg", theirs.figure, over: mine.figure)
                let expected = files(theirs.output)
                report.agree("index.tree.find.\(name)", peer: "rg", equal: ours == expected,
                             "trawl \(ours.count) files, rg \(expected.count), \(ours.symmetricDifference(expected).count) differ")
            }
            if let csearch, FileManager.default.fileExists(atPath: csearchIndex), report.wantsPeer("index.tree.find.\(name).csearch") {
                let theirs = try timeCommand("index.tree.find.\(name).csearch", [csearch, "-l"] + arguments, runs: runs, report: report,
                                             environment: ["CSEARCHINDEX": csearchIndex])
                report.addRatio("index.tree.find.\(name).speedup_vs_csearch", theirs.figure, over: mine.figure)
                csearchFigures[name] = theirs.figure
                let found = files(theirs.output)
                // csearch indexes every file (ignored, hidden and binary ones too, which rg and
                // trawl skip): its list may hold more, never fewer.
                report.agree("index.tree.find.\(name)", peer: "csearch", equal: ours.isSubset(of: found),
                             "csearch \(found.count) files: \(found.subtracting(ours).count) more (files trawl and rg skip), \(ours.subtracting(found).count) missing")
            }
        }

        // The same queries while `trawl index --watch` runs: the files that changed come from it,
        // no file is stat'ed. The lists are checked against rg's; csearch's figures are the ones
        // just measured.
        if TreeIndexBench.queries.contains(where: { report.wants("index.tree.find_watched.\($0.name)") }) {
            let watcher = try Child.start(trawl, ["index", "--watch", tree])
            defer {
                kill(watcher.pid, SIGINT)
                _ = watcher.finish(limit: 60)
            }
            let deadline = Date(timeIntervalSinceNow: 300)
            while !((try? String(contentsOfFile: watcher.errorFile, encoding: .utf8))?.contains("watching") ?? false) {
                guard Date() < deadline, kill(watcher.pid, 0) == 0 else {
                    throw BenchError("trawl index --watch did not start: \((try? String(contentsOfFile: watcher.errorFile, encoding: .utf8)) ?? "")")
                }
                usleep(20_000)
            }
            for (name, arguments) in TreeIndexBench.queries where report.wants("index.tree.find_watched.\(name)") {
                let mine = try timeCommand("index.tree.find_watched.\(name)", [trawl, "find", "-l"] + arguments + [tree], runs: runs, report: report)
                if let rg = tool("rg") {
                    let expected = files(try runTool(rg, ["-l"] + arguments + [tree]).stdout)
                    report.agree("index.tree.find_watched.\(name)", peer: "rg", equal: files(mine.output) == expected,
                                 "trawl \(files(mine.output).count) files, rg \(expected.count)")
                }
                if let theirs = csearchFigures[name] {
                    report.addRatio("index.tree.find_watched.\(name).speedup_vs_csearch", theirs, over: mine.figure)
                }
            }
        }

        // A refresh after 10 files change (appended to, then truncated back at the end).
        if report.wants("index.tree.refresh") {
            let changed = try FileManager.default.subpathsOfDirectory(atPath: tree).filter { $0.hasSuffix(".swift") && !$0.hasPrefix(".") }
                .sorted().enumerated().filter { $0.offset % 997 == 0 }.prefix(10).map { tree + "/" + $0.element }
            let sizes = try changed.map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
            defer {
                for (path, size) in zip(changed, sizes) { truncate(path, off_t(size)) }
                _ = try? runTool(trawl, ["index", tree])
            }
            var round = 0
            let refresh = try timeCommand("index.tree.refresh_10_changed", [trawl, "index", tree], runs: runs, report: report, before: {
                round += 1
                for path in changed {
                    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data("// refreshed \(round)\n".utf8))
                    try handle.close()
                    // Edited a minute ago: not "racily clean" (then it would be read again by every
                    // later refresh, as git does too, and the next figure would not be a no-change one).
                    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60 - Double(round))], ofItemAtPath: path)
                }
            })
            report.addRatio("index.tree.refresh_10_changed.share_of_build", refresh.figure, over: build.figure)
            _ = try timeCommand("index.tree.refresh_unchanged", [trawl, "index", tree], runs: runs, report: report)
        }
    }

    /// 4,000 files of generated code-like text in 40 folders.
    private func generateTree(at root: String) throws {
        let text = generatedCorpus(size: 16_000_000)
        for number in 0..<4000 {
            let folder = root + "/module\(number % 40)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let start = number * 4000
            try Data(text[start..<(start + 4000)]).write(to: URL(fileURLWithPath: folder + "/file\(number).swift"))
        }
    }

    private func folderBytes(_ folder: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder).reduce(0) { total, name in
            total + ((try FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
        }
    }

    /// The bytes of the tree's regular files (without .trawl), and of the files trawl indexes.
    private func treeSizes(_ tree: String) throws -> (tree: Int, text: Int) {
        var total = 0
        let files = FileManager.default.enumerator(atPath: tree)!
        while let path = files.nextObject() as? String {
            if path == ".trawl" { files.skipDescendants(); continue }
            let attributes = files.fileAttributes
            if attributes?[.type] as? FileAttributeType == .typeRegular { total += attributes?[.size] as? Int ?? 0 }
        }
        // "N files, M indexed holding B bytes (...": what trawl indexes of the tree.
        let stats = try runTool(try buildTrawl(), ["index", "--stats", tree]).stdout
        let text = stats.components(separatedBy: "holding ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        return (total, text > 0 ? text : total)
    }
}
