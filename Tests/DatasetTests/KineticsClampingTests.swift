import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import Manifest
import Testing

/// A Kinetics-skeleton source whose coordinates leave [0, 1]: clamped, counted in the file's
/// record (`provenance.json`'s `clamped_keypoints`) and in one warning for the source, on the
/// first import and again from the cache, as for OpenPose. Before, they were clamped silently.
@Suite struct KineticsClampingTests {
    @Test func clampedCoordinatesAreCountedOnImportAndFromTheCache() throws {
        let directory = try TemporaryDirectory()
        let score = Array(repeating: "0.9", count: 18).joined(separator: ",")
        for (name, outside) in [("a", 0), ("b", 3)] {
            let frames = (1...4).map { frame in
                // In file b, joint 2 of frames 1-3 is at x = -0.5.
                let pose = (0..<36).map { $0 == 4 && frame <= outside ? "-0.5" : "\(0.2 + Double($0) * 0.01)" }.joined(separator: ",")
                return #"{"frame_index": \#(frame), "skeleton": [{"pose": [\#(pose)], "score": [\#(score)]}]}"#
            }
            _ = try writeFixture(#"{"data": [\#(frames.joined(separator: ","))], "label": "squat"}"#, named: "clips/\(name).json", in: directory.url)
        }
        let configuration = try ExperimentConfiguration.parse(
            text: """
                { name: 'x', features: { layout: 'vision18', frameRate: 30, cache: 'cache' },
                  dataset: { sources: [{ format: 'kinetics', path: 'clips' }], validation: { strategy: 'none' } } }
                """,
            fileName: "x.json5", baseDirectory: directory.url)
        for attempt in ["import", "cache"] {
            let lines = LogLines()
            let loader = DatasetLoader(configuration: configuration, cache: try FeatureCache(directory: configuration.features.cache), log: lines.append)
            let loaded = try loader.load()
            #expect(loaded.cacheHits == (attempt == "cache" ? 2 : 0))
            #expect(loaded.records.map(\.clampedKeypoints) == [0, 3], "\(attempt)")
            let warnings = lines.lines.filter { $0.hasPrefix("warning: train: ") && $0.contains("clamped") }
            #expect(warnings.count == 1, "\(attempt): \(lines.lines)")
            #expect(warnings.first?.contains("3 keypoints were outside the image and clamped to its border; the first: "
                + "\(directory.file("clips/b.json").path): frame_index 1 joint") == true, "\(attempt): \(warnings)")
        }
        // A copy of the data set elsewhere reads the same cache entries, and its warning names its own file.
        try FileManager.default.copyItem(at: directory.file("clips"), to: directory.file("copy"))
        let copy = try ExperimentConfiguration.parse(
            text: """
                { name: 'x', features: { layout: 'vision18', frameRate: 30, cache: 'cache' },
                  dataset: { sources: [{ format: 'kinetics', path: 'copy' }], validation: { strategy: 'none' } } }
                """,
            fileName: "x.json5", baseDirectory: directory.url)
        let lines = LogLines()
        let loaded = try DatasetLoader(configuration: copy, cache: try FeatureCache(directory: copy.features.cache), log: lines.append).load()
        #expect(loaded.cacheHits == 2)
        #expect(lines.lines.contains { $0.contains("the first: \(directory.file("copy/b.json").path): frame_index 1 joint") }, "\(lines.lines)")
    }
}
