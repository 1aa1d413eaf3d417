#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import SystemPackage
import TrawlFiles

/// Files found by a walk running on another thread, handed out in walk order in batches.
final class FileQueue: @unchecked Sendable { // all state is guarded by `mutex`
    private var files: [WalkedFile] = []
    private var head = 0
    private var finished = false
    private var result = Walker.Result()
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    func push(_ file: WalkedFile) {
        pthread_mutex_lock(&mutex)
        files.append(file)
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    func finish(_ walkResult: Walker.Result) {
        pthread_mutex_lock(&mutex)
        finished = true
        result = walkResult
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// Up to `limit` files; waits while the walk is still going and nothing is ready; `nil` at the end.
    func nextBatch(limit: Int) -> [WalkedFile]? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while head == files.count && !finished { pthread_cond_wait(&condition, &mutex) }
        guard head < files.count else { return nil }
        let end = min(files.count, head + limit)
        let batch = Array(files[head..<end])
        head = end
        if head > 4096 && head * 2 > files.count {
            files.removeFirst(head)
            head = 0
        }
        return batch
    }

    /// The walk's errors (valid once `nextBatch` returned `nil`).
    var walkResult: Walker.Result {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return result
    }
}

/// Walks `roots` on a background thread while `work` runs on the files found so far, in parallel
/// batches; `consume` receives each file's outcome in walk order (so output is deterministic).
/// Returns the walk's errors.
func processInWalkOrder<Outcome: Sendable>(_ walker: Walker, roots: [FilePath], parallel: Bool = true,
                                           work: @escaping @Sendable (WalkedFile) -> Outcome,
                                           consume: (Outcome) -> Void) -> Walker.Result {
    let queue = FileQueue()
    DispatchQueue.global().async {
        let result = walker.walk(roots) { queue.push($0) }
        queue.finish(result)
    }
    while let batch = queue.nextBatch(limit: parallel ? 64 : 1) {
        if parallel && batch.count > 1 {
            let slots = SlotArray<Outcome>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in slots.set(index, work(batch[index])) }
            for index in batch.indices { if let outcome = slots.take(index) { consume(outcome) } }
        } else {
            for file in batch { consume(work(file)) }
        }
    }
    return queue.walkResult
}
