import SystemPackage
import TrawlConcurrency

extension Walker {
    /// Walks `roots` on a background thread while `work` runs on the files found so far, in
    /// parallel batches; `consume` receives each file's outcome in walk order. Returns the walk's
    /// problems.
    public func processInWalkOrder<Outcome: Sendable>(_ roots: [FilePath], parallel: Bool = true,
                                                      work: @escaping @Sendable (WalkedFile) -> Outcome,
                                                      consume: (Outcome) -> Void) -> Result {
        let walker = self
        return processInOrder(parallel: parallel, produce: { emit in walker.walk(roots, visit: emit) }, work: work, consume: consume)
    }
}
