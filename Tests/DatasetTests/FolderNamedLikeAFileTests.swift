import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import Manifest
import Testing

/// A folder inside a label folder that is named like a data file (`squat/b.json/`) is a sample
/// that fails, naming the folder, under `dataset.onError`; before, it was skipped without a word
/// and the data set silently had one sample less.
@Suite struct FolderNamedLikeAFileTests {
    /// `clips/squat/a.json` and `clips/wave/a.json` (Kinetics-skeleton clips of 8 frames), and the folder `clips/squat/b.json/`.
    static func writeClips(in directory: TemporaryDirectory) throws {
        for label in ["squat", "wave"] {
            let frames = (1...8).map { frame in
                let pose = (0..<36).map { "\(0.2 + Double($0) * 0.01 + Double(frame) * 0.001)" }.joined(separator: ",")
                let score = Array(repeating: "0.9", count: 18).joined(separator: ",")
                return #"{"frame_index": \#(frame), "skeleton": [{"pose": [\#(pose)], "score": [\#(score)]}]}"#
            }
            _ = try writeFixture(#"{"data": [\#(frames.joined(separator: ","))], "label": "\#(label)"}"#, named: "clips/\(label)/a.json", in: directory.url)
        }
        _ = try writeFixture("{}", named: "clips/squat/b.json/notes.json", in: directory.url)
    }

    static func load(_ directory: TemporaryDirectory, onError: String) throws -> LoadedDataset {
        let configuration = try ExperimentConfiguration.parse(
            text: """
                { name: 'x', features: { layout: 'vision18', frameRate: 30, cache: 'cache' },
                  dataset: { sources: [{ format: 'kinetics', path: 'clips' }], onError: '\(onError)', validation: { strategy: 'none' } } }
                """,
            fileName: "x.json5", baseDirectory: directory.url)
        return try DatasetLoader(configuration: configuration, cache: try FeatureCache(directory: configuration.features.cache)).load()
    }

    @Test func itFailsTheRunOrIsSkippedNamingTheFolder() throws {
        let directory = try TemporaryDirectory()
        try Self.writeClips(in: directory)
        let folder = directory.file("clips/squat/b.json").path
        let error = #expect(throws: DatasetError.self) { try Self.load(directory, onError: "fail") }
        #expect("\(error.map { "\($0)" } ?? "")".contains("\(folder): is a folder, not a kinetics file"), "\(String(describing: error))")

        let loaded = try Self.load(directory, onError: "skip")
        #expect(loaded.train.count == 2)
        #expect(loaded.skipped.count == 1 && loaded.skipped[0].contains("\(folder): is a folder, not a kinetics file"), "\(loaded.skipped)")
    }
}
