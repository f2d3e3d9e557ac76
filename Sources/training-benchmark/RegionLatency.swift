import NeuralNetwork
import Randomness

/// The cost of starting and ending a parallel operation (`training-benchmark --regions R`),
/// under each ``ComputeThreads/WaitPolicy``.
///
/// One operation is `Tensor.add` of 2¹⁷ floats (512 KiB), which ``ComputeThreads`` splits into
/// one part per thread: about 15 µs of work at one thread, like the short operations of a CTR-GCN
/// step. It runs `R` times back to back, then `R` times with 100 µs of single-threaded work before
/// each (idle active workers are still spinning) and `R` times with 1 ms before each (they have
/// fallen asleep), at 1 thread and at `threads` threads under both policies. The report is
/// microseconds per operation, the gap not counted.
struct RegionLatency {
    /// `{"1 thread": {...}, "N threads active": {...}, "N threads passive": {...}}`, each with
    /// `"backToBack"`, `"after100us"` and `"after1ms"` in microseconds per operation.
    let json: [String: Any]

    init(threads: Int, repeats: Int) {
        var generator = SeededGenerator(seed: 0, purpose: "benchmark-regions")
        let count = 1 << 17
        let increment = Tensor(shape: [count], values: (0..<count).map { _ in generator.nextUniform() })
        var total = Tensor(zeros: [count])
        let clock = ContinuousClock()
        func microseconds(_ duration: Duration) -> Double {
            (Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18) * 1e6
        }
        /// Busy single-threaded work for about `duration`.
        func wait(_ duration: Duration) {
            let end = clock.now + duration
            while clock.now < end {}
        }
        func measure(threads: Int, policy: ComputeThreads.WaitPolicy) -> [String: Double] {
            let previous = ComputeThreads.waitPolicy
            ComputeThreads.waitPolicy = policy
            defer { ComputeThreads.waitPolicy = previous }
            return ComputeThreads.withCount(threads) {
                total.add(increment)  // warm-up: starts the workers, touches the memory
                let backToBack = clock.measure { for _ in 0..<repeats { total.add(increment) } }
                func afterGap(_ gap: Duration) -> Double {
                    var elapsed = Duration.zero
                    for _ in 0..<repeats {
                        wait(gap)
                        elapsed += clock.measure { total.add(increment) }
                    }
                    return microseconds(elapsed) / Double(repeats)
                }
                return [
                    "backToBack": microseconds(backToBack) / Double(repeats),
                    "after100us": afterGap(.microseconds(100)),
                    "after1ms": afterGap(.milliseconds(1)),
                ]
            }
        }
        var report: [String: Any] = ["1 thread": measure(threads: 1, policy: .active)]
        for policy in ComputeThreads.WaitPolicy.allCases {
            report["\(threads) threads \(policy.rawValue)"] = measure(threads: threads, policy: policy)
        }
        json = report
    }
}
