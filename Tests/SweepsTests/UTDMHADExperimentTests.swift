import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import Manifest
import Sweeps
import Testing

/// The committed UTD-MHAD manifests on the real skeleton recordings (`scripts/setup` installs
/// them; a missing copy fails with where to download it): import, the cross-subject protocol,
/// accuracy above the published skeleton-only numbers, determinism.
@Suite(.serialized) struct UTDMHADExperimentTests {
    static func plan(_ name: String, scratch: URL, adjust: (inout ExperimentConfiguration) -> Void = { _ in }) throws -> (SweepPlan, URL) {
        _ = try TestData.utdMHADSkeletonFolder()
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/\(name).json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting { configuration in
            configuration.features.cache = scratch.appendingPathComponent("cache")
            configuration.output.directory = scratch.appendingPathComponent("reports")
            adjust(&configuration)
        }
        return (plan, manifest)
    }

    /// All 861 MAT-files import; per label 32 recordings (8 subjects × 4 trials) except the three
    /// the dataset's authors discarded (actions 8, 23 and 27 have 31); the test set is subjects 2,
    /// 4, 6 and 8 (430 recordings); validation is whole training subjects; a second load reads
    /// every file from the cache.
    @Test func everyRecordingImportsIntoTheCrossSubjectSplits() throws {
        let scratch = try TemporaryDirectory()
        let (plan, _) = try Self.plan("utd-mhad-sweep", scratch: scratch.url)
        let configuration = plan.base
        let cache = try FeatureCache(directory: configuration.features.cache)
        let loaded = try DatasetLoader(configuration: configuration, cache: cache).load()
        let all = loaded.train + loaded.validation + loaded.test
        #expect(all.count == 861)
        #expect(loaded.labels.count == 27)
        var perLabel: [String: Int] = [:]
        for sequence in all { perLabel[sequence.label, default: 0] += 1 }
        let short = Set(["draw x", "walk", "squat"])
        for label in loaded.labels { #expect(perLabel[label] == (short.contains(label) ? 31 : 32), "\(label): \(perLabel[label] ?? 0)") }
        #expect(all.allSatisfy { (41...125).contains($0.frameCount) && $0.jointCount == 20 && $0.channelCount == 3 })
        func subjects(_ sequences: [DatasetSequence]) -> Set<String> { Set(sequences.compactMap { $0.fields["subject"] }) }
        #expect(subjects(loaded.test) == ["2", "4", "6", "8"] && loaded.test.count == 430)
        #expect(subjects(loaded.train).isDisjoint(with: subjects(loaded.validation)))
        #expect(subjects(loaded.train).union(subjects(loaded.validation)) == ["1", "3", "5", "7"])
        #expect(subjects(loaded.validation).count == 1)
        #expect(loaded.splitMethods.first?.contains("subject is 2, 4, 6 or 8") == true)
        let again = try DatasetLoader(configuration: configuration, cache: cache).load()
        #expect(again.cacheHits == 861)
        #expect(again.test.map(\.id) == loaded.test.map(\.id) && again.validation.map(\.id) == loaded.validation.map(\.id))
    }

    /// Acceptance: `experiments/utd-mhad.json5` (cross-subject, 3 seeds) scores a mean test
    /// accuracy above JTM's 85.81 % and ST-JDM's 91.63 % (the published
    /// skeleton-only numbers) and the 89.8 % of 1-NN DTW on this copy.
    @Test func crossSubjectAccuracyIsAboveThePublishedNumbers() throws {
        let scratch = try TemporaryDirectory()
        let (plan, manifest) = try Self.plan("utd-mhad", scratch: scratch.url)
        #expect(plan.base.training.seeds.count == 3)
        let runner = SweepRunner(plan: plan, manifestURL: manifest)
        let folder = try runner.run()
        var accuracies: [Double] = []
        for trial in plan.trials {
            let data = try Data(contentsOf: folder.appendingPathComponent("trials/\(trial.id)/metrics.json"))
            let metrics = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            // One window per recording (uniform sampling): the window accuracy is the recording accuracy.
            accuracies.append(try #require((metrics["test"] as? [String: Any])?["accuracy"] as? Double))
        }
        let mean = accuracies.reduce(0, +) / Double(accuracies.count)
        // Above ST-JDM's 91.63 %, the best published skeleton-only number. The mean was 0.92 or
        // more on the Intel host with OpenBLAS's Cooperlake kernel; on a 2-core AMD EPYC (Haswell
        // kernel, other rounding) it was 0.9194 (seeds 0.909, 0.916, 0.933), CI of 4e908a2.
        #expect(mean > 0.9163, "UTD-MHAD cross-subject test accuracies \(accuracies), mean \(mean)")
    }
}
