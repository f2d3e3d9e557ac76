import Foundation
import Manifest
import Testing

/// `features.pose.model`: another pose landmarker bundle (MediaPipe's lite or heavy model) named
/// in the manifest, resolved against the manifest's folder, checked to be a file, passed to the
/// landmarker, and left out of the resolved form (so of every trial id) when not given.
@Suite struct PoseModelSettingTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
        try Data("bundle".utf8).write(to: fixture.directory.file("data/pose_landmarker_lite.task"))
    }

    @Test func absentKeepsTheBuiltBundleAndTheResolvedForm() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal())
        #expect(configuration.features.pose.model == nil)
        #expect(configuration.features.pose.estimatorOptions.modelPath == nil)
        #expect(!configuration.resolvedJSON().contains("\"model\" : \"") && !configuration.resolvedJSON().contains("pose_landmarker"))
    }

    @Test func aFileIsResolvedAgainstTheManifestAndReachesTheLandmarker() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("features: { pose: { model: 'data/pose_landmarker_lite.task' } }"))
        let path = fixture.path("data/pose_landmarker_lite.task")
        #expect(configuration.features.pose.model?.standardizedFileURL.path == path)
        #expect(configuration.features.pose.estimatorOptions.modelPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path } == path)
        // The resolved form names it, so it reads back the same (a `run DIR` resume, a Slurm task).
        let resolved = configuration.resolvedJSON()
        #expect(resolved.contains("pose_landmarker_lite.task"), "\(resolved)")
        let again = try ExperimentConfiguration.parse(text: resolved, fileName: "resolved.json", baseDirectory: fixture.base)
        #expect(again.features.pose == configuration.features.pose)
    }

    @Test(arguments: [
        ("'data/pose_landmarker_heavy.task'", "missing file: no file or directory at"),
        ("'data/clips'", "is a folder; expected a file"),
        ("''", "expected a non-empty string"),
        ("3", "expected a string"),
    ])
    func aMissingFileOrAFolderIsReportedAtItsJSONPath(value: String, message: String) {
        let issues = fixture.issues(ManifestFixture.minimal("features: { pose: { model: \(value) } }"))
        let issue = issues.first { $0.path == "features.pose.model" }
        #expect(issue?.message.contains(message) == true, "\(issues)")
    }
}
