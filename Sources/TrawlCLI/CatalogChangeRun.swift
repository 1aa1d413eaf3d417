import SystemPackage
import TrawlCatalog
import TrawlStorage
import TrawlConcurrency

/// `trawl catalog add ITEMS.jsonl`: records items (one JSON object per line, as `build` reads
/// them) as upserted into the stored catalog, without writing it whole (``CatalogStore``). Bad
/// lines are reported with their number and skipped.
package struct CatalogAddRun: Sendable {
    /// The JSON Lines file; "-" reads standard input.
    package var items: FilePath = "-"
    package var folder: FilePath = CatalogStore.defaultFolder
    package var stats = false

    package init() {}

    /// Runs it; returns the exit code (0 recorded, 2 a line was bad or nothing could be recorded).
    package func run() -> Int32 {
        let start = monotonicNanoseconds()
        guard let read = readItemsFile(items) else { return 2 }
        let lines = CatalogLines(parsing: read, fields: [])
        let parsed = Array(lines)
        let summary = lines.summary
        if read.changedWhileMapped {
            Console.error("\(items): the file shrank while it was read; nothing recorded")
            return 2
        }
        let pending: Int
        do {
            pending = try CatalogStore.upsert(parsed, in: folder)
        } catch {
            Console.error("\(CatalogStore.path(in: folder)): cannot add to the catalog: \(error) (build it with trawl catalog build)")
            return 2
        }
        for (line, reason) in summary.problems { Console.error("\(items):\(line): \(reason); line skipped") }
        if stats {
            Console.write("\(parsed.count) items recorded from \(summary.itemCount) lines (\(summary.problems.count) skipped); "
                + (pending == 0 ? "the catalog was written whole with them" : "\(pending) changes pending") + ", \(formatSeconds(monotonicNanoseconds() - start))\n")
        }
        return summary.problems.isEmpty ? 0 : 2
    }
}

/// `trawl catalog delete ID…`: records the items with these ids as deleted from the stored
/// catalog (ids it does not hold are ignored).
package struct CatalogDeleteRun: Sendable {
    package var ids: [String] = []
    package var folder: FilePath = CatalogStore.defaultFolder

    package init() {}

    /// Runs it; returns the exit code (0 recorded, 2 nothing could be recorded).
    package func run() -> Int32 {
        do {
            try CatalogStore.delete(ids: ids, in: folder)
            return 0
        } catch {
            Console.error("\(CatalogStore.path(in: folder)): cannot delete from the catalog: \(error) (build it with trawl catalog build)")
            return 2
        }
    }
}
