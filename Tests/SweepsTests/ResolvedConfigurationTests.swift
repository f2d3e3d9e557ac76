import ActionLabTestSupport
import Foundation
import Manifest
import Sweeps
import Testing

/// `resolved.json` is itself a manifest: every committed manifest's resolved configuration (of
/// every grid cell) reads back as a manifest into an equal configuration.
@Suite struct ResolvedConfigurationTests {
    static let manifests = ["basicmotions", "gunpoint", "basicmotions-sweep", "gunpoint-sweep", "synthetic", "basicmotions-stgcn"]

    @Test(arguments: manifests)
    func resolvedConfigurationIsAManifestThatDecodesToTheSameConfiguration(name: String) throws {
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let scratch = try TemporaryDirectory()
        // The synthetic manifest's data folder only has to exist for validation.
        try FileManager.default.createDirectory(at: scratch.file("data/synthetic"), withIntermediateDirectories: true)
        for dataset in ["BasicMotions", "GunPoint"] {
            try FileManager.default.createDirectory(at: scratch.file("data/uea"), withIntermediateDirectories: true)
            try? FileManager.default.createSymbolicLink(
                at: scratch.file("data/uea/\(dataset)"), withDestinationURL: TestData.root.appendingPathComponent("uea/\(dataset)"))
        }
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/\(name).json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: scratch.url)
        for cell in plan.cells {
            let text = cell.resolvedJSON()
            #expect(!text.contains("file://"), "paths are written as plain paths")
            let reread = try ExperimentConfiguration.parse(text: text, fileName: "resolved.json", baseDirectory: scratch.url)
            #expect(reread == cell)
        }
    }
}
