import ActionLabTestSupport
import Foundation
import Pose
import SyntheticData
import Testing

@Suite struct SyntheticDatasetTests {
    static let small = SyntheticDataset(actions: SyntheticAction.allCases, sequencesPerClass: 3, seed: 7, duration: 2)

    /// Every file's bytes, by path relative to the dataset folder.
    static func contents(of folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        for case let name as String in enumerator {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[name] = try Data(contentsOf: url)
            }
        }
        return result
    }

    @Test func sameSeedWritesIdenticalFilesAndAnotherSeedDoesNot() throws {
        let scratch = try TemporaryDirectory(prefix: "synth")
        try Self.small.write(to: scratch.file("a"))
        try Self.small.write(to: scratch.file("b"))
        var other = Self.small
        other.seed = 8
        try other.write(to: scratch.file("c"))
        let a = try Self.contents(of: scratch.file("a"))
        #expect(a.count == SyntheticAction.allCases.count * 3 + 2)
        #expect(a == (try Self.contents(of: scratch.file("b"))))
        let c = try Self.contents(of: scratch.file("c"))
        #expect(a.keys == c.keys)
        #expect(a.filter { $0.key.hasSuffix(".csv") }.allSatisfy { c[$0.key] != $0.value })
    }

    /// The files read back through the importer Create ML-style datasets go through: every class,
    /// the stated frame count, coordinates in [0, 1], confidence in (0, 1], and undetected joints
    /// exactly (0, 0, 0), some of them present.
    @Test func filesAreLabelledVision18SequencesInRange() throws {
        let scratch = try TemporaryDirectory(prefix: "synth")
        let files = try Self.small.write(to: scratch.url)
        let entries = try LabeledDirectory.entries(in: scratch.url)
        #expect(Set(entries.map(\.label)) == Set(SyntheticAction.allCases.map(\.rawValue)))
        #expect(entries.count == files.count)
        var undetected = 0
        for entry in entries {
            let sequences = try KeypointCSVImporter().importSequences(
                from: entry.url, layout: .vision18, frameRate: 30, label: entry.label)
            let sequence = try #require(sequences.first?.sequence)
            #expect(sequence.frameCount == 60 && sequence.channelCount == 3 && sequence.jointCount == 18)
            for frame in 0..<sequence.frameCount {
                for joint in 0..<18 {
                    let (x, y, c) = (sequence[frame, 0, joint], sequence[frame, 1, joint], sequence[frame, 2, joint])
                    if c == 0 {
                        #expect(x == 0 && y == 0, "\(entry.url.lastPathComponent) frame \(frame) joint \(joint)")
                        undetected += 1
                    } else {
                        #expect((0...1).contains(x) && (0...1).contains(y) && c > 0 && c <= 1,
                                "\(entry.url.lastPathComponent) frame \(frame) joint \(joint): (\(x), \(y), \(c))")
                    }
                }
            }
        }
        #expect(undetected > 0, "missing joints should occur")
    }

    @Test func everyOutputSaysItIsSynthetic() throws {
        let scratch = try TemporaryDirectory(prefix: "synth")
        try Self.small.write(to: scratch.url)
        let readme = try String(contentsOf: scratch.file("README.md"), encoding: .utf8)
        #expect(readme.contains("SYNTHETIC"))
        #expect(readme.contains("--seed 7"))
        let description = try JSONDecoder().decode(
            SyntheticDatasetDescription.self, from: Data(contentsOf: scratch.file("dataset.json")))
        #expect(description.synthetic)
        #expect(description.generatorVersion == SyntheticDataset.generatorVersion)
        #expect(description.seed == 7 && description.frames == 60 && description.sequencesPerClass == 3)
        #expect(description.classes == SyntheticAction.allCases.map(\.rawValue))
    }

    /// Every action moves the limbs, relative to the neck, more than standing idle does
    /// (measured without keypoint noise or missing joints).
    @Test func everyActionMovesMoreThanIdle() {
        var variation = SyntheticVariation()
        variation.noise = 0...0
        variation.missingJoints = 0...0
        let dataset = SyntheticDataset(seed: 1, duration: 4, variation: variation)
        func motion(_ action: SyntheticAction) -> Float {
            let sequence = dataset.sequence(of: action, index: 0)
            var total: Float = 0
            for joint in [2, 4, 5, 7, 8, 10, 11, 13] {
                for channel in 0..<2 {
                    let relative = (0..<sequence.frameCount).map { sequence[$0, channel, joint] - sequence[$0, channel, 1] }
                    total += (relative.max() ?? 0) - (relative.min() ?? 0)
                }
            }
            return total
        }
        let idle = motion(.idle)
        for action in SyntheticAction.allCases where action != .idle {
            #expect(motion(action) > 2 * idle, "\(action) should move more than idle (\(motion(action)) vs \(idle))")
        }
    }

    @Test func aNonEmptyFolderIsRefusedBeforeWriting() throws {
        let scratch = try TemporaryDirectory(prefix: "synth")
        try Data("x".utf8).write(to: scratch.file("keep.txt"))
        #expect(throws: SyntheticDataError.outputNotEmpty(path: scratch.url.path)) { try Self.small.write(to: scratch.url) }
    }

    @Test func badParametersAndUnknownClassesAreNamed() throws {
        var dataset = Self.small
        dataset.sequencesPerClass = 0
        #expect(throws: SyntheticDataError.self) { try dataset.validate() }
        dataset = Self.small
        dataset.duration = 0.001
        #expect(throws: SyntheticDataError.self) { try dataset.validate() }
        // Sizes past the bounds are named errors, where `duration: 1e300` trapped converting to Int, a billion frames
        // failed to allocate and Int.max sequences never ended.
        for (duration, frameRate, perClass) in [(1e300, 30.0, 1), (1e300, 1e300, 1), (1.0, 1e9, 1), (0.1, 10.0, Int.max)] {
            dataset = Self.small
            (dataset.duration, dataset.frameRate, dataset.sequencesPerClass) = (duration, frameRate, perClass)
            let error = #expect(throws: SyntheticDataError.self) { try dataset.validate() }
            #expect(error.map { "\($0)".contains("at most") } == true, "\(String(describing: error))")
        }
        #expect(try SyntheticAction.parseList("squat, idle") == [.squat, .idle])
        #expect(throws: SyntheticDataError.unknownAction(name: "dab", known: SyntheticAction.allCases.map(\.rawValue))) {
            try SyntheticAction.parseList("squat,dab")
        }
    }
}
