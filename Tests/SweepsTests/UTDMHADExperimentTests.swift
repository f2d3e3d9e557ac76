import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import Manifest
import Models
import Reports
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

    /// `experiments/utd-mhad.json5` (cross-subject, the committed recipe) with its first seed
    /// only and 30 of its 60 epochs (the cosine schedule over 30), to keep CI's wall time in
    /// bounds: test accuracy above JTM's published 85.81 %. Seed 1 at 30 epochs gave 0.9047 on a
    /// 2-core AMD EPYC (Zen 3, OpenBLAS Haswell kernel; `actionlab run` of the manifest with
    /// `epochs: 30, seeds: [1]`, 2026-12-06), against 0.909 at 60 epochs on that kernel and 0.9209
    /// on Cooperlake: above 1-NN DTW's 89.8 % on this copy too, by less than the kernels differ,
    /// so the bound is JTM's. The acceptance number, the mean over the manifest's 3 seeds at 60
    /// epochs against ST-JDM's 91.63 %, comes from `actionlab run experiments/utd-mhad.json5`
    /// (about 30 minutes here), quoted in the README's Data section: 93.10 ± 1.19 % (seeds 1, 2,
    /// 3: 0.9209, 0.9279, 0.9442) on the Intel host (Cooperlake kernel), 0.9194 (0.909, 0.916,
    /// 0.933) on a 2-core AMD EPYC (Haswell kernel, CI of 4e908a2).
    @Test func crossSubjectAccuracyOfOneSeedIsAboveJTM() throws {
        let scratch = try TemporaryDirectory()
        let (full, manifest) = try Self.plan("utd-mhad", scratch: scratch.url)
        #expect(full.base.training.seeds == [1, 2, 3], "the README's 3-seed numbers are for seeds 1, 2, 3")
        #expect(full.base.training.epochs == 60, "the README's numbers are for 60 epochs")
        let (plan, _) = try Self.plan("utd-mhad", scratch: scratch.url) {
            $0.training.seeds = [1]
            $0.training.epochs = 30
        }
        let trial = try #require(plan.trials.first)
        #expect(plan.trials.count == 1)
        let folder = try SweepRunner(plan: plan, manifestURL: manifest).run()
        let data = try Data(contentsOf: folder.appendingPathComponent("trials/\(trial.id)/metrics.json"))
        let metrics = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // One window per recording (uniform sampling): the window accuracy is the recording accuracy.
        let accuracy = try #require((metrics["test"] as? [String: Any])?["accuracy"] as? Double)
        #expect(accuracy > 0.8581, "UTD-MHAD cross-subject test accuracy of seed 1 at 30 epochs: \(accuracy)")
        print("UTD-MHAD cross-subject, seed 1, 30 epochs: test accuracy \(accuracy)")
    }

    /// `experiments/utd-mhad-streams.json5` (four streams of stgcn-small, 3 seeds, about two hours
    /// here: `actionlab run experiments/utd-mhad-streams.json5`) in a CI-sized form: the `tcn`
    /// family on the same four streams, seed 1, 30 epochs. Each trial writes its test windows'
    /// probabilities; the sweep fuses them 2:2:1:1. The ensemble's test accuracy in
    /// `ensembles.csv` equals NumPy's argmax of the weighted mean of the four committed
    /// `scores/test.csv` files, beats the mean of its streams, and is above a floor.
    @Test func fourStreamsFuseIntoAnEnsembleThatBeatsItsStreams() throws {
        let scratch = try TemporaryDirectory()
        let (plan, manifest) = try Self.plan("utd-mhad-streams", scratch: scratch.url) {
            let stream = $0.model.stream
            $0.model = .tcn(normalizeInput: true)
            $0.model.stream = stream
            $0.training.seeds = [1]
            $0.training.epochs = 30
        }
        #expect(plan.trials.map(\.configuration.model.stream) == [.joint, .bone, .jointMotion, .boneMotion])
        #expect(Set(plan.trials.map(\.id)).count == 4)
        let folder = try SweepRunner(plan: plan, manifestURL: manifest).run()
        let table = try Table.parse(csv: String(contentsOf: folder.appendingPathComponent("ensembles.csv"), encoding: .utf8))
        #expect(table.rows.map { $0[0] } == ["ensemble", "joint", "bone", "jointMotion", "boneMotion"])
        let column = try #require(table.header.firstIndex(of: "test_accuracy_mean"))
        let accuracies = table.rows.compactMap { Double($0[column]) }
        try #require(accuracies.count == 5)
        let (ensemble, streams) = (accuracies[0], Array(accuracies.dropFirst()))
        #expect(table.rows[0][1] == "j+b+jm+bm" && table.rows[0][2] == "2:2:1:1" && table.rows[0][4] == "1")

        guard try PythonOracle.requireModules(["numpy"]) else { return }
        let files = plan.trials.map { folder.appendingPathComponent("trials/\($0.id)/scores/test.csv").path }
        let reference = try #require(try PythonOracle.json(
            """
            import csv, json, sys
            import numpy as np
            weights, fused, labels = [2, 2, 1, 1], None, None
            for path, weight in zip(sys.argv[1:], weights):
                with open(path, newline="") as f:
                    rows = list(csv.reader(f))
                assert all(c.startswith("p:") for c in rows[0][4:]), rows[0]  # probability columns p:<class>
                classes = [c[2:] for c in rows[0][4:]]
                p = np.array([[float(v) for v in row[4:]] for row in rows[1:]])
                truth = [classes.index(row[3]) for row in rows[1:]]
                assert labels is None or labels == truth
                labels = truth
                fused = weight * p if fused is None else fused + weight * p
            print(json.dumps([float(np.mean(np.argmax(fused, axis=1) == np.array(labels)))]))
            """, arguments: files) as? [Double])
        #expect(reference.count == 1 && abs((reference.first ?? -1) - ensemble) < 1e-12, "NumPy's fused accuracy \(reference), ActionLab's \(ensemble)")
        #expect(ensemble > streams.reduce(0, +) / Double(streams.count), "ensemble \(ensemble), streams \(streams)")
        #expect(ensemble > 0.80, "ensemble test accuracy \(ensemble), streams \(streams)")
        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("## Stream ensembles") && summary.contains("**ensemble j+b+jm+bm**"))
    }
}
