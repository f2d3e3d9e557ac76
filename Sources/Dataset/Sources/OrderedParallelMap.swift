import Foundation

/// Maps items on several threads and returns the results in the items' order, so the outcome
/// does not depend on how the threads were scheduled.
///
/// Each worker takes the next unclaimed item when it is done with one (dynamic scheduling, for
/// items of uneven cost such as source files or videos of different lengths). The workers are
/// the calling thread and `workers - 1` threads of their own (not a shared pool, whose width is
/// the core count: `workers` items really are in flight at once). With one worker, or one item,
/// everything runs on the calling thread.
enum OrderedParallelMap {
    /// `items.map(transform)`, computed on up to `workers` threads.
    /// - Parameters:
    ///   - items: The inputs.
    ///   - workers: The most threads to use; values below 1 count as 1.
    ///   - transform: Called once per item, possibly on several threads at once: it must be safe
    ///     to call concurrently.
    /// - Returns: The results, `result[i] == transform(items[i])`.
    static func map<Item, Output>(_ items: [Item], workers: Int, _ transform: (Item) -> Output) -> [Output] {
        let threads = min(max(1, workers), items.count)
        guard threads > 1 else { return items.map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            let state = SharedState(items: items, transform: transform)
            let finished = DispatchGroup()
            for number in 1..<threads {
                finished.enter()
                let thread = Thread {
                    state.work()
                    finished.leave()
                }
                thread.name = "ActionLab worker \(number)"
                thread.start()
            }
            state.work()
            finished.wait()
            // A finished `Thread` may still hold its block (and so `state`) for a moment: drop the
            // lent transform now, as `withoutActuallyEscaping` checks that nothing holds it.
            state.transform = nil
            // Every index was claimed once and filled before every worker returned, so no
            // element is nil.
            return state.results.compactMap { $0 }
        }
    }

    /// The items, the transform and the results, shared by the workers.
    ///
    /// `@unchecked Sendable` is safe because every mutable property is touched only under `lock`,
    /// and ``map(_:workers:_:)`` returns only after every worker has finished, so the transform
    /// (lent by `withoutActuallyEscaping`) never outlives the call.
    private final class SharedState<Item, Output>: @unchecked Sendable {
        let items: [Item]
        /// Set to nil once every worker is done (read only before then, so without the lock).
        var transform: ((Item) -> Output)?
        let lock = NSLock()
        var next = 0
        var results: [Output?]

        init(items: [Item], transform: @escaping (Item) -> Output) {
            self.items = items
            self.transform = transform
            results = Array(repeating: nil, count: items.count)
        }

        /// Maps unclaimed items until none is left.
        func work() {
            guard let transform else { return }
            while true {
                let index: Int = lock.withLock {
                    defer { next += 1 }
                    return next
                }
                guard index < items.count else { return }
                let output = transform(items[index])
                lock.withLock { results[index] = output }
            }
        }
    }
}
