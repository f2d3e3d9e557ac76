import ActionLabTestSupport
import Foundation
import Sweeps
import Testing

@Suite struct ThreadWarningTests {
    /// `experiments/synthetic-stgcn.json5` asks for 2 compute threads: a warning on one core,
    /// none on two or more.
    @Test func moreThreadsThanCoresIsAWarning() throws {
        let scratch = try TemporaryDirectory(prefix: "thread-warning")
        try FileManager.default.createDirectory(at: scratch.file("data/synthetic"), withIntermediateDirectories: true)
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/synthetic-stgcn.json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: scratch.url)
        #expect(plan.threadWarning(logicalCores: 1) == "warning: training.threads 2 is more than the 1 processors available here: "
            + "each operation is split into 2 parts that take turns on 1 cores (slower; the same results as 2 threads elsewhere)")
        #expect(plan.threadWarning(logicalCores: 2) == nil)
        #expect(plan.threadWarning(logicalCores: 64) == nil)
    }
}
