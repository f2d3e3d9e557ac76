import ActionLabTestSupport
import Export
import Foundation
import Sweeps
import Testing

/// What a folder is among ActionLab's outputs, from each kind's marker files: the one list that
/// `export` and `predict --output` both refuse folders by.
@Suite struct ActionLabFolderKindTests {
    @Test func eachKindIsToldByItsMarkerFiles() throws {
        let scratch = try TemporaryDirectory(prefix: "folder-kinds")
        func kinds(_ files: [String]) throws -> [String] {
            let folder = scratch.url.appendingPathComponent(UUID().uuidString)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files { try Data().write(to: folder.appendingPathComponent(file)) }
            return ActionLabFolderKind.kinds(of: folder).map { "\($0.kind) (\($0.marker))" }
        }
        #expect(try kinds([]) == [])
        #expect(try kinds(["notes.txt", "summary.md", "check.md"]) == [])
        #expect(try kinds(["summary.md", "predict-run.json"]) == ["a predictions folder of actionlab predict (predict-run.json)"])
        #expect(try kinds([SweepRecord.fileName, "leaderboard.csv"]) == ["a sweep folder of actionlab run (sweep.json)"])
        // A finished trial holds a single model's files too; an unfinished one may hold only its provenance.
        #expect(try kinds(TrialFolder.requiredFiles.map(\.name)) == [
            "a trial folder of actionlab run (\(TrialRunner.completionMarker))", "a model export folder (weights.h5)",
        ])
        #expect(try kinds(["provenance.json"]) == ["a trial folder of actionlab run (provenance.json)"])
        #expect(try kinds(["config.json", "model.onnx"]) == ["a model export folder (config.json)"])
        #expect(try kinds(["ensemble.json", "model-card.md"]) == ["a stream-ensemble export folder (ensemble.json)"])
        // Nothing there, or a file: no kind.
        #expect(ActionLabFolderKind.kinds(of: scratch.url.appendingPathComponent("absent")).isEmpty)
        let file = scratch.url.appendingPathComponent("file")
        try Data().write(to: file)
        #expect(ActionLabFolderKind.kinds(of: file).isEmpty)
    }
}
