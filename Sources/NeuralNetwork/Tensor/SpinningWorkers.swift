import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The persistent threads that run ``ComputeThreads``' parts: between two parallel regions each
/// worker spins for ``spinDuration`` before it sleeps, so the next region starts without waking a
/// thread.
///
/// A training step runs over a thousand short parallel regions: a CTR-GCN step at batch 32 and
/// 2 threads ran about 1,100 of 1.2 ms on average (BENCHMARKS.md, "Parallel regions", measured
/// before the bias and the channel copies were split between threads too, which added more).
/// Dispatch's pool parks its threads at once, and on the 2-core development machine waking one
/// cost 20–27 µs before the second part started and about 20 µs more at the region's end: 6–8 %
/// of a CTR-GCN step's CPU time. OpenMP runtimes, which PyTorch's CPU kernels use, keep their
/// threads spinning for the same reason (libgomp's `GOMP_SPINCOUNT`, the OpenMP specification's
/// `OMP_WAIT_POLICY=active`).
///
/// A region is a ``Region``: the caller publishes it, every awake worker and the caller claim its
/// parts one at a time from an atomic counter, and the caller returns once every claimed part has
/// finished. Which thread runs a part never changes what the part computes, so results stay
/// bit-identical for a given split. One region runs at a time; a caller that finds the pool busy
/// (another thread's region, such as a parallel test or a second trial) gets `false` from
/// ``run(_:_:)`` and uses Dispatch instead, as every caller does under
/// ``ComputeThreads/WaitPolicy/passive``.
final class SpinningWorkers: @unchecked Sendable {
    /// The process's pool, grown on demand to the largest ``ComputeThreads/count`` minus one.
    static let shared = SpinningWorkers()

    /// How long an idle worker keeps checking for the next region before it sleeps.
    static let spinDuration: Duration = .microseconds(200)

    /// One parallel region: its parts, its body (valid only while a claimed part is unfinished),
    /// the next unclaimed part and the number of parts not yet finished.
    private final class Region: @unchecked Sendable {
        let parts: [Range<Int>]
        var body: ((_ part: Int, _ range: Range<Int>) -> Void)?
        let nextPart = Atomic<Int>(0)
        let unfinished: Atomic<Int>

        init(parts: [Range<Int>], body: @escaping (_ part: Int, _ range: Range<Int>) -> Void) {
            self.parts = parts
            self.body = body
            unfinished = Atomic(parts.count)
        }

        /// Claims and runs parts until none is left.
        func work() {
            while true {
                let part = nextPart.wrappingAdd(1, ordering: .relaxed).oldValue
                guard part < parts.count else { return }
                run(part)
                unfinished.subtract(1, ordering: .releasing)
            }
        }

        /// Runs one claimed part; the body's reference is released before the part counts as finished.
        @inline(never)
        private func run(_ part: Int) {
            body?(part, parts[part])
        }
    }

    /// Serializes regions: held by the caller for the whole region.
    private let regionLock = NSLock()
    /// Guards `region`, `workerCount` and the sleeping workers' wait.
    private let state = NSCondition()
    /// The region being published, read by workers under `state`.
    private var region: Region?
    /// Counts published regions; a worker that has seen `generation` waits for the next.
    private let generation = Atomic<Int>(0)
    /// Workers asleep on `state` (read by the publisher to skip the broadcast when none is).
    private let sleepers = Atomic<Int>(0)
    private var workerCount = 0

    private init() {}

    /// Runs `body` once for each of `parts` on the caller's thread and at most `parts.count − 1`
    /// workers, returning when every part has finished.
    ///
    /// - Returns: `false`, without running anything, when another thread's region holds the pool.
    func run(_ parts: [Range<Int>], _ body: (_ part: Int, _ range: Range<Int>) -> Void) -> Bool {
        guard regionLock.try() else { return false }
        defer { regionLock.unlock() }
        growWorkers(to: parts.count - 1)
        withoutActuallyEscaping(body) { body in
            let region = Region(parts: parts, body: body)
            state.lock()
            self.region = region
            state.unlock()
            generation.wrappingAdd(1, ordering: .sequentiallyConsistent)
            if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
                state.lock()
                state.broadcast()
                state.unlock()
            }
            ComputeThreads.runningAsPart { region.work() }
            var spins = 0
            while region.unfinished.load(ordering: .acquiring) > 0 {
                spins += 1
                if spins % 1024 == 0 { sched_yield() }
            }
            // Every part has finished: no worker reads the body again, so it may end here.
            region.body = nil
            state.lock()
            self.region = nil
            state.unlock()
        }
        return true
    }

    /// Starts workers until there are `count`.
    private func growWorkers(to count: Int) {
        state.lock()
        defer { state.unlock() }
        while workerCount < count {
            workerCount += 1
            let thread = Thread { [self] in workerLoop() }
            thread.name = "actionlab-compute-\(workerCount)"
            thread.start()
        }
    }

    /// A worker: waits for each new region (spinning, then asleep) and works on it.
    private func workerLoop() {
        ComputeThreads.runningAsPart {
            let clock = ContinuousClock()
            var seen = generation.load(ordering: .acquiring)
            while true {
                var deadline = clock.now + Self.spinDuration
                var spins = 0
                while generation.load(ordering: .acquiring) == seen {
                    spins += 1
                    guard spins % 64 == 0, clock.now > deadline else { continue }
                    state.lock()
                    sleepers.wrappingAdd(1, ordering: .sequentiallyConsistent)
                    while generation.load(ordering: .sequentiallyConsistent) == seen { state.wait() }
                    sleepers.wrappingSubtract(1, ordering: .sequentiallyConsistent)
                    state.unlock()
                    deadline = clock.now + Self.spinDuration
                }
                seen = generation.load(ordering: .acquiring)
                state.lock()
                let region = self.region
                state.unlock()
                region?.work()
            }
        }
    }
}
