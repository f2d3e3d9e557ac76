import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import MATLAB
import Manifest
import Testing

/// A `mat` source through the loader and the feature cache: labeled directories of MAT-files, and
/// a cache key that includes the variable and its axes.
@Suite struct MATSourceLoadingTests {
    /// `clips/<label>/<n>.mat`, each holding `d_skel` (20 × 3 × 4) and `short` (20 × 3 × 2), [J, C, T].
    static func makeClips(in directory: TemporaryDirectory) throws {
        for (index, label) in ["swipe", "wave"].enumerated() {
            let folder = directory.file("clips/\(label)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = try MATFile(creatingAt: folder.appendingPathComponent("\(index).mat"), version: .mat5)
            for (name, frames) in [("d_skel", 4), ("short", 2)] {
                let values = (0..<(60 * frames)).map { Double($0 + index) / 100 }
                try file.write(MATNumericArray(dimensions: [20, 3, frames], values: values), named: name)
            }
            try file.close()
        }
    }

    static func configuration(_ directory: TemporaryDirectory, variable: String) throws -> ExperimentConfiguration {
        try ExperimentConfiguration.parse(
            text: """
                { name: 'x', features: { layout: 'kinect-v1', frameRate: 30, cache: 'cache' },
                  dataset: { sources: [{ format: 'mat', path: 'clips', variable: '\(variable)', axes: ['J', 'C', 'T'] }],
                             validation: { strategy: 'none' } } }
                """,
            fileName: "x.json5", baseDirectory: directory.url)
    }

    @Test func importsOnceAndReimportsWhenTheVariableChanges() throws {
        let directory = try TemporaryDirectory()
        try Self.makeClips(in: directory)
        func load(_ variable: String) throws -> LoadedDataset {
            let configuration = try Self.configuration(directory, variable: variable)
            return try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        }
        let first = try load("d_skel")
        #expect(first.labels == ["swipe", "wave"])
        #expect(first.cacheHits == 0)
        #expect(first.train.map(\.frameCount) == [4, 4])
        let second = try load("d_skel")
        #expect(second.cacheHits == 2)
        let other = try load("short")
        #expect(other.cacheHits == 0)
        #expect(other.train.map(\.frameCount) == [2, 2])
    }

    @Test func aBadFileFailsNamingItAndTheVariable() throws {
        let directory = try TemporaryDirectory()
        try Self.makeClips(in: directory)
        let configuration = try Self.configuration(directory, variable: "skeleton")
        let error = try #require(throws: DatasetError.self) {
            try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        }
        let text = "\(error)"
        #expect(text.contains("clips/swipe/0.mat") && text.contains("clips/wave/1.mat"), "\(text)")
        #expect(text.contains("no variable 'skeleton' in the MAT-file; the variables present are: 'd_skel', 'short'"), "\(text)")
    }
}
