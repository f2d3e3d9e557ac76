import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The number of threads ActionLab's numeric kernels split one operation between.
///
/// OpenBLAS itself always runs single-threaded (see ``BLAS``): layers split their own work — the
/// samples of a batch, the channels of a batch normalization, the columns of a large `sgemm` —
/// into ``count`` contiguous parts, run them at once on ``SpinningWorkers`` (on Dispatch's pool
/// while another thread's operation holds them) and combine partial sums in part order.
/// Splitting is decided by the work and the count alone, so results are bit-identical for a given
/// count (and, where partial sums are combined, may differ from another count's in the last bits).
/// One thread (the default) runs everything on the caller's thread: one trial per core when a
/// sweep runs trials in parallel (DESIGN.md).
public enum ComputeThreads {
    /// The process-wide default of ``count``, 1 unless set (`actionlab run --threads`); read and
    /// written only with `processDefaultLock` held.
    nonisolated(unsafe) private static var processDefaultValue = 1

    /// Guards `processDefaultValue`, which any thread may read while another sets it.
    private static let processDefaultLock = NSLock()

    /// ``count``'s process-wide default, read and written under `processDefaultLock`.
    private static var processDefault: Int {
        get { processDefaultLock.withLock { processDefaultValue } }
        set { processDefaultLock.withLock { processDefaultValue = newValue } }
    }

    /// An override of ``count`` for the current task or thread, set by ``withCount(_:_:)``.
    @TaskLocal private static var scopedCount: Int?

    /// The threads one operation may use: the innermost ``withCount(_:_:)`` value, else the
    /// process-wide default; always 1 inside a part that is already running in parallel.
    ///
    /// Setting it changes the process-wide default; it must be at least 1.
    public static var count: Int {
        get { isInsidePart ? 1 : scopedCount ?? processDefault }
        set {
            precondition(newValue >= 1, "ComputeThreads.count must be at least 1, got \(newValue)")
            processDefault = newValue
        }
    }

    /// Runs `body` with ``count`` set to `count` on this task (and the synchronous code it calls),
    /// without changing the process-wide default, so that concurrent callers do not see it.
    ///
    /// - Parameters:
    ///   - count: Threads per operation inside `body`, at least 1.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    public static func withCount<R>(_ count: Int, _ body: () throws -> R) rethrows -> R {
        precondition(count >= 1, "ComputeThreads.withCount needs at least 1 thread, got \(count)")
        return try $scopedCount.withValue(count, operation: body)
    }

    /// How the threads of a parallel operation wait for the next one.
    public enum WaitPolicy: String, CaseIterable, Sendable {
        /// Persistent workers spin for 200 µs (``SpinningWorkers/spinDuration``) after each
        /// operation before they sleep, so the next one starts at once (OpenMP's
        /// `OMP_WAIT_POLICY=active`). The default: a training step runs over a thousand short
        /// operations. An operation split into more parts than the machine has processors runs
        /// on Dispatch's pool, as libgomp stops spinning when threads outnumber processors.
        case active
        /// Dispatch's pool, whose threads sleep as soon as an operation ends (OpenMP's
        /// `passive`): for a node shared with other jobs, where a spinning thread takes a core
        /// from them. Results are the same bits under both policies.
        case passive
    }

    /// The environment variable that sets ``waitPolicy`` in `actionlab` and the benchmarks:
    /// `ACTIONLAB_WAIT_POLICY`, `active` or `passive`.
    public static let waitPolicyVariable = "ACTIONLAB_WAIT_POLICY"

    /// Whether idle workers spin (``WaitPolicy/active``), as an atomic flag read by every operation.
    private static let passiveWait = Atomic<Bool>(false)

    /// The process-wide wait policy, ``WaitPolicy/active`` unless set.
    public static var waitPolicy: WaitPolicy {
        get { passiveWait.load(ordering: .relaxed) ? .passive : .active }
        set { passiveWait.store(newValue == .passive, ordering: .relaxed) }
    }

    /// Sets ``waitPolicy`` from ``waitPolicyVariable`` when `environment` has it.
    ///
    /// - Throws: ``InvalidWaitPolicy`` when its value is neither `active` nor `passive`.
    public static func applyWaitPolicy(from environment: [String: String]) throws {
        guard let value = environment[waitPolicyVariable] else { return }
        guard let policy = WaitPolicy(rawValue: value) else { throw InvalidWaitPolicy(value: value) }
        waitPolicy = policy
    }

    /// A value of `ACTIONLAB_WAIT_POLICY` that is not a ``WaitPolicy``.
    public struct InvalidWaitPolicy: Error, CustomStringConvertible {
        /// The value found.
        public let value: String

        public var description: String {
            let choices = WaitPolicy.allCases.map(\.rawValue).joined(separator: " or ")
            return "\(ComputeThreads.waitPolicyVariable) must be \(choices), got '\(value)'"
        }
    }

    /// The processors this process may run on (``availableProcessors()``, read once), which
    /// bound the parts the spinning workers take.
    private static let processorCount = availableProcessors()

    /// The fewest elements of an element-wise loop worth a thread of their own (2¹⁶, 256 KiB
    /// of floats: tens of microseconds of memory traffic against a few to start a thread).
    static let elementsPerPart = 1 << 16

    /// `0..<total` split into at most ``count`` consecutive ranges of at least `minimumSize`
    /// elements each (one range when `total` is small), in order. Empty when `total` is 0.
    ///
    /// - Parameters:
    ///   - total: The number of items (samples, channels, elements) to split.
    ///   - minimumSize: The fewest items worth a thread of their own.
    ///   - alignment: Every range but the last starts and ends on a multiple of it (for SIMD loops).
    static func parts(of total: Int, minimumSize: Int = 1, alignment: Int = 1) -> [Range<Int>] {
        ranges(of: total, count: max(1, min(count, total / max(1, minimumSize))), alignment: alignment)
    }

    /// `0..<total` split into `count` evenly spaced consecutive ranges, in order, every bound but
    /// the last rounded down to a multiple of `alignment`; ranges left empty by the rounding are
    /// dropped, so there may be fewer. Empty when `total` is 0. The one split rule behind
    /// ``parts(of:minimumSize:alignment:)`` (as many ranges as threads) and
    /// ``BLAS/blocks(of:)`` (as many as a product's shape asks for).
    ///
    /// - Parameters:
    ///   - total: The number of items to split (not negative).
    ///   - count: The number of ranges before empty ones are dropped; at least 1.
    ///   - alignment: Every range but the last starts and ends on a multiple of it; at least 1.
    static func ranges(of total: Int, count: Int, alignment: Int = 1) -> [Range<Int>] {
        guard total > 0 else { return [] }
        let count = max(1, count), alignment = max(1, alignment)
        let bounds = (0...count).map { index in
            index == count ? total : index * total / count / alignment * alignment
        }
        return zip(bounds, bounds.dropFirst()).compactMap { $0 < $1 ? $0..<$1 : nil }
    }

    /// Calls `body(part, range)` for every range of `parts`, at once on as many threads when there
    /// are several, else on this thread. Inside `body` ``count`` is 1, so nested operations (a BLAS
    /// call, another layer's kernel) run on the part's own thread.
    ///
    /// - Parameters:
    ///   - parts: Ranges from ``parts(of:minimumSize:alignment:)``.
    ///   - body: The work of one part; it must only write memory no other part writes.
    static func forEach(_ parts: [Range<Int>], _ body: (_ part: Int, _ range: Range<Int>) -> Void) {
        if parts.count <= 1 || isInsidePart {
            for (index, range) in parts.enumerated() { body(index, range) }
            return
        }
        // More parts than cores would leave a part waiting for a core that a worker spins on.
        if waitPolicy == .active, parts.count <= processorCount, SpinningWorkers.shared.run(parts, body) { return }
        // The passive policy, more parts than cores, or another thread's operation holds the workers.
        withoutActuallyEscaping(body) { body in
            let work = PartWork(body: body)
            DispatchQueue.concurrentPerform(iterations: parts.count) { index in
                runningAsPart { work.body(index, parts[index]) }
            }
        }
    }

    /// The work of ``forEach(_:_:)`` carried onto Dispatch's threads.
    ///
    /// `@unchecked Sendable` is safe because `concurrentPerform` returns only after every part
    /// has finished, so `body` and what it captures (buffers, layers, scratch memory) never
    /// outlive the call that lent them (`withoutActuallyEscaping` checks it), and because
    /// ``forEach(_:_:)``'s contract is that each part writes only memory that no other part
    /// reads or writes.
    private struct PartWork: @unchecked Sendable {
        let body: (_ part: Int, _ range: Range<Int>) -> Void
    }

    /// Splits `0..<total` with ``parts(of:minimumSize:alignment:)`` and runs ``forEach(_:_:)``.
    static func forEachPart(
        of total: Int, minimumSize: Int = 1, alignment: Int = 1, _ body: (_ part: Int, _ range: Range<Int>) -> Void
    ) {
        forEach(parts(of: total, minimumSize: minimumSize, alignment: alignment), body)
    }

    /// Splits `0..<items` into parts of whole items, each of about ``elementsPerPart`` values or
    /// more (`elementsPerPart / elementsPerItem` items, rounded down, at least 1), and runs
    /// ``forEach(_:_:)``: the split every loop over samples, channels or rows uses.
    ///
    /// - Parameters:
    ///   - items: The number of items (samples, channels, rows).
    ///   - elementsPerItem: The values one item spans (for a sample of `[N, C, T]`, `C·T`);
    ///     0 counts as 1.
    ///   - body: The work of one part; it must only write memory no other part writes.
    static func forEachPart(
        of items: Int, elementsPerItem: Int, _ body: (_ part: Int, _ range: Range<Int>) -> Void
    ) {
        forEachPart(of: items, minimumSize: max(1, elementsPerPart / max(1, elementsPerItem)), body)
    }

    /// Runs `body` with ``isInsidePart`` set on this thread.
    static func runningAsPart<R>(_ body: () throws -> R) rethrows -> R {
        let wasInside = isInsidePart
        setInsidePart(true)
        defer { setInsidePart(wasInside) }
        return try body()
    }

    /// Whether the calling thread is running one part of a parallel operation (a thread-specific
    /// flag: neither Dispatch's threads nor ``SpinningWorkers`` carry task-local values).
    static var isInsidePart: Bool { pthread_getspecific(insidePartKey) != nil }

    private static func setInsidePart(_ inside: Bool) {
        pthread_setspecific(insidePartKey, inside ? UnsafeRawPointer(bitPattern: 1) : nil)
    }

    /// The thread-specific key of ``isInsidePart``, created once.
    private static let insidePartKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()
}
