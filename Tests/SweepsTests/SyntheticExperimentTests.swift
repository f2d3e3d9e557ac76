import ActionLabTestSupport
import Foundation
import Manifest
import Models
import Sweeps
import SyntheticData
import Testing

/// `experiments/synthetic.json5` and `synthetic-stgcn.json5` on a freshly generated SYNTHETIC
/// dataset, through the library.
@Suite struct SyntheticExperimentTests {
    /// Each committed manifest trains its model to at least 0.95 validation accuracy on the six
    /// default classes, generated as the manifests' comments say (80 per class, seed 1): `tcn`,
    /// and `stgcn-small` (issue [stgcn]'s acceptance, two threads as its manifest says).
    @Test(arguments: [("synthetic.json5", "tcn"), ("synthetic-stgcn.json5", "stgcn-small")])
    func modelLearnsTheSixDefaultClasses(manifestName: String, kind: String) throws {
        let scratch = try TemporaryDirectory(prefix: "synthetic-experiment")
        let dataset = SyntheticDataset(actions: SyntheticAction.defaultSet, sequencesPerClass: 80, seed: 1)
        try dataset.write(to: scratch.file("data/synthetic"))
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/\(manifestName)")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: scratch.url).adjusting {
            $0.features.cache = scratch.file("cache")
            $0.output.directory = scratch.file("reports")
        }
        #expect(plan.base.model.kind == kind)
        #expect(plan.base.windows.size == 60)
        let trial = try #require(plan.trials.first)

        let folder = try SweepRunner(plan: plan, manifestURL: manifest).run()
        let metrics = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("trials/\(trial.id)/metrics.json"))) as? [String: Any])
        let accuracy = try #require((metrics["validation"] as? [String: Any])?["accuracy"] as? Double)
        #expect(accuracy >= 0.95, "\(manifestName): validation accuracy \(accuracy)")
    }
}
