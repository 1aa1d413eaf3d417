/// An EventLoop runs tasks on a fixed set of threads.
public final class EventLoop {
    public let threadCount: Int
    private var tasks: [() -> Void] = []

    public init(threads: Int) {
        precondition(threads > 0, "an EventLoop needs at least one thread")
        threadCount = threads
    }

    public func execute(_ task: @escaping () -> Void) {
        tasks.append(task)
    }

    public func run() {
        while !tasks.isEmpty {
            let task = tasks.removeFirst()
            task()
        }
    }
}
