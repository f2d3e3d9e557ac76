import ActionLabTestSupport
import FeatureCache
import Foundation
import Manifest
import Pose
import Testing

@testable import Dataset

/// Fields from file names (`pattern`), glob paths, the test set selected by a field and the
/// validation split grouped by one, on keypoint CSV files named as UTD-MHAD and NTU RGB+D name
/// theirs.
@Suite struct FileNameFieldsTests {
    /// Writes one short kinect-v1 CSV per name into `folder`.
    private static func writeRecordings(_ names: [String], in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let layout = SkeletonLayout.kinectV1
        for (index, name) in names.enumerated() {
            let frames = 10 + index % 7
            let values = (0..<(frames * layout.channelCount * layout.jointCount)).map { Float(($0 + index) % 13) * 0.1 + 0.05 }
            let sequence = PoseSequence(
                keypoints: values, timestamps: PoseSequence.uniformTimestamps(frameCount: frames, frameRate: 30),
                channelCount: layout.channelCount, jointCount: layout.jointCount, frameRate: 30)
            try KeypointCSVWriter().write(sequence, layout: layout, to: folder.appendingPathComponent(name))
        }
    }

    private static func load(_ manifest: String, in scratch: TemporaryDirectory) throws -> LoadedDataset {
        let configuration = try ExperimentConfiguration.parse(text: manifest, fileName: "x.json5", baseDirectory: scratch.url)
        return try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: scratch.file("cache"))).load()
    }

    /// UTD-MHAD's names: 3 actions × 4 subjects × 2 trials; cross-subject test (subjects 2 and
    /// 4), validation one whole training subject.
    @Test func crossSubjectSplitsFromUTDMHADNames() throws {
        let scratch = try TemporaryDirectory(prefix: "fields")
        var names: [String] = []
        for action in 1...3 { for subject in 1...4 { for trial in 1...2 { names.append("a\(action)_s\(subject)_t\(trial)_skeleton.csv") } } }
        try Self.writeRecordings(names, in: scratch.file("Skeleton"))
        try Data("not a recording".utf8).write(to: scratch.file("Skeleton/README.txt"))
        let manifest = """
            {
              name: 'utd', features: { layout: 'kinect-v1', cache: 'cache' },
              dataset: {
                sources: [{ format: 'csv', path: 'Skeleton/*_skeleton.csv',
                            pattern: 'a(?<label>\\\\d+)_s(?<subject>\\\\d+)_t(?<trial>\\\\d+)_skeleton\\\\.csv' }],
                labels: { '1': 'swipe left', '2': 'swipe right', '3': 'wave' },
                test: { where: { subject: [2, 4] } },
                validation: { groupBy: 'subject', fraction: 0.5 },
              },
            }
            """
        let loaded = try Self.load(manifest, in: scratch)
        func subjects(_ sequences: [DatasetSequence]) -> Set<String> { Set(sequences.compactMap { $0.fields["subject"] }) }
        #expect(subjects(loaded.test) == ["2", "4"])
        #expect(loaded.test.count == 12)
        #expect(subjects(loaded.validation).count == 1 && subjects(loaded.train).count == 1)
        #expect(subjects(loaded.validation).isDisjoint(with: subjects(loaded.train)))
        #expect(subjects(loaded.train).union(subjects(loaded.validation)) == ["1", "3"])
        #expect(loaded.labels == ["swipe left", "swipe right", "wave"])
        #expect(Set(loaded.validation.map(\.label)) == Set(loaded.labels))
        #expect(loaded.train.allSatisfy { $0.fields["trial"] != nil })
        // Test files are recorded as test, not train.
        #expect(loaded.records.filter { $0.role == "test" }.count == 12)
        #expect(loaded.records.filter { $0.role == "train" }.count == 12)
        #expect(loaded.splitMethods.contains { $0.hasPrefix("test: the files of dataset.sources whose subject is 2 or 4") })
        #expect(loaded.splitMethods.contains { $0.contains("no subject is on both sides") })
    }

    /// NTU RGB+D's `S001C001P001R001A001` names give setup, camera, subject, replication and
    /// label; integers match across zero padding (`P003` is subject 3).
    @Test func ntuNamesGiveEveryField() throws {
        let scratch = try TemporaryDirectory(prefix: "fields")
        let names = (1...3).flatMap { subject in (1...2).map { action in String(format: "S001C002P%03dR001A%03d.csv", subject, action) } }
        try Self.writeRecordings(names, in: scratch.file("ntu"))
        let manifest = """
            {
              name: 'ntu', features: { layout: 'kinect-v1', cache: 'cache' },
              dataset: {
                sources: [{ format: 'csv', path: 'ntu',
                            pattern: 'S(?<setup>\\\\d{3})C(?<camera>\\\\d{3})P(?<subject>\\\\d{3})R(?<replication>\\\\d{3})A(?<label>\\\\d{3})\\\\.csv' }],
                test: { where: { subject: [3] } },
                validation: { strategy: 'none' },
              },
            }
            """
        let loaded = try Self.load(manifest, in: scratch)
        #expect(loaded.test.count == 2 && loaded.train.count == 4)
        #expect(loaded.test.allSatisfy { $0.fields["subject"] == "003" && $0.fields["camera"] == "002" && $0.fields["setup"] == "001" })
        #expect(Set(loaded.train.map(\.label)) == ["001", "002"])
        #expect(loaded.splitMethods.contains { $0.contains("grouped by recording") } == false)
    }

    /// A file whose name the pattern does not match fails with its name and the pattern.
    @Test func unmatchedNameIsAnErrorNamingTheFile() throws {
        let scratch = try TemporaryDirectory(prefix: "fields")
        try Self.writeRecordings(["a1_s1_t1_skeleton.csv", "a2_s1_t1.csv"], in: scratch.file("Skeleton"))
        let manifest = """
            { name: 'utd', features: { layout: 'kinect-v1', cache: 'cache' },
              dataset: { sources: [{ format: 'csv', path: 'Skeleton', pattern: 'a(?<label>\\\\d+)_s(?<subject>\\\\d+)_t\\\\d+_skeleton\\\\.csv' }] } }
            """
        let error = #expect(throws: DatasetError.self) { try Self.load(manifest, in: scratch) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("a2_s1_t1.csv"))
        #expect("\(error.map { "\($0)" } ?? "")".contains("1 of 2 file names do not match the source's pattern"))
    }

    /// Manifest errors: a split by a field no source gives, a pattern without groups, a glob
    /// that matches nothing, both `sources` and `where`.
    @Test(arguments: [
        ("test: { where: { subject: [2] } }", "gives no field 'subject'"),
        ("validation: { groupBy: 'camera' }", "gives no field 'camera'"),
        ("test: { where: { subject: [2] }, sources: [{ format: 'csv', path: 'Skeleton', label: 'x' }] }", "not both"),
        ("test: { where: {} }", "at least one field"),
        ("validation: { groupBy: 'label' }", "hold out whole classes"),
    ])
    func splitByMissingFieldIsAManifestError(members: String, message: String) throws {
        let scratch = try TemporaryDirectory(prefix: "fields")
        try Self.writeRecordings(["a1_s1_t1_skeleton.csv"], in: scratch.file("Skeleton"))
        let manifest = """
            { name: 'utd', features: { layout: 'kinect-v1' },
              dataset: { sources: [{ format: 'csv', path: 'Skeleton', pattern: 'a(?<label>\\\\d+)_s\\\\d+_t\\\\d+_skeleton\\\\.csv' }], \(members) } }
            """
        let error = #expect(throws: Error.self) {
            try ExperimentConfiguration.parse(text: manifest, fileName: "x.json5", baseDirectory: scratch.url)
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains(message))
    }

    @Test(arguments: [
        ("path: 'Skeleton', label: 'y', pattern: 'a\\\\d+'", "has no named group"),
        ("path: 'Skeleton', label: 'y', pattern: 'a(?<label>'", "not a regular expression"),
        ("path: 'Skeleton/*.mat', label: 'y'", "nothing matches the pattern"),
        ("path: 'Skeleton', label: 'x', pattern: 'a(?<label>\\\\d+).*'", "contradictory values"),
    ])
    func badPatternOrGlobIsAManifestError(source: String, message: String) throws {
        let scratch = try TemporaryDirectory(prefix: "fields")
        try Self.writeRecordings(["a1_s1_t1_skeleton.csv"], in: scratch.file("Skeleton"))
        let manifest = "{ name: 'x', features: { layout: 'kinect-v1' }, dataset: { sources: [{ format: 'csv', \(source) }] } }"
        let error = #expect(throws: Error.self) {
            try ExperimentConfiguration.parse(text: manifest, fileName: "x.json5", baseDirectory: scratch.url)
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains(message))
    }

    /// Splits that come out empty fail at load time with the key that made them: a selection of
    /// no file or of every file, a grouping with one subject; an empty label group fails its file;
    /// every file whose name does not match is listed.
    @Test(arguments: [
        ("test: { where: { subject: [9] } }", "selects none of the training files"),
        ("test: { where: { subject: [1, 2] } }", "selects every training file"),
        ("test: { where: { subject: [2] } }, validation: { groupBy: 'subject' }", "needs at least two subject values"),
    ])
    func emptySplitsNameTheirKey(members: String, message: String) throws {
        let scratch = try TemporaryDirectory(prefix: "fields")
        try Self.writeRecordings(["a1_s1_t1_skeleton.csv", "a2_s1_t1_skeleton.csv", "a1_s2_t1_skeleton.csv", "a2_s2_t1_skeleton.csv"],
                                 in: scratch.file("Skeleton"))
        let manifest = """
            { name: 'x', features: { layout: 'kinect-v1', cache: 'cache' },
              dataset: { sources: [{ format: 'csv', path: 'Skeleton', pattern: 'a(?<label>\\\\d+)_s(?<subject>\\\\d+)_t\\\\d+_skeleton\\\\.csv' }], \(members) } }
            """
        let error = #expect(throws: DatasetError.self) { try Self.load(manifest, in: scratch) }
        #expect("\(error.map { "\($0)" } ?? "")".contains(message), "\(error.map { "\($0)" } ?? "")")
    }

    /// A source that gives no sequences (montage annotations with no rows) is named in the
    /// empty-split error (found by scripts/fuzz-data.py: the message named no file).
    @Test func aTrainingSourceThatGivesNothingIsNamed() throws {
        let scratch = try TemporaryDirectory(prefix: "fields")
        let annotations = try writeFixture("[]", named: "clips/annotations.json", in: scratch.url)
        let manifest = "{ name: 'x', features: { layout: 'vision18', cache: 'cache' }, dataset: { sources: [{ format: 'montage', path: 'clips/annotations.json' }] } }"
        let error = #expect(throws: DatasetError.self) { try Self.load(manifest, in: scratch) }
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.contains("\(annotations.path) gave no sequences"), "\(text)")
    }

    @Test func everyUnmatchedNameIsListedAndAnEmptyLabelFails() throws {
        let scratch = try TemporaryDirectory(prefix: "fields")
        try Self.writeRecordings(["x1.csv", "x2.csv", "a1_s1.csv"], in: scratch.file("data"))
        let strict = "{ name: 'x', features: { layout: 'kinect-v1', cache: 'cache' }, dataset: { sources: [{ format: 'csv', path: 'data', pattern: 'a(?<label>\\\\d+)_s(?<subject>\\\\d+)\\\\.csv' }] } }"
        let unmatched = #expect(throws: DatasetError.self) { try Self.load(strict, in: scratch) }
        let text = "\(unmatched.map { "\($0)" } ?? "")"
        #expect(text.contains("2 of 3 file names do not match") && text.contains("x1.csv") && text.contains("x2.csv"), "\(text)")
        let empty = "{ name: 'x', features: { layout: 'kinect-v1', cache: 'cache' }, dataset: { sources: [{ format: 'csv', path: 'data', pattern: '[ax](?<label>[a-z]*)(?<rest>.*)' }] } }"
        let emptyLabel = #expect(throws: DatasetError.self) { try Self.load(empty, in: scratch) }
        #expect("\(emptyLabel.map { "\($0)" } ?? "")".contains("matched no text"))
    }
}
