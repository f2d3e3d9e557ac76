import ActionLabTestSupport
import Foundation
import Pose
import Testing

@Suite struct KeypointCSVImporterTests {
    /// A vision18 sequence of `frameCount` frames with distinct values, joint 4 undetected in frame 1.
    static func vision18Sequence(timestamps: [Double], frameRate: Double) -> PoseSequence {
        let layout = SkeletonLayout.vision18
        var sequence = PoseSequence(
            keypoints: (0..<timestamps.count * layout.channelCount * layout.jointCount).map { Float($0) / 7 - 3 },
            timestamps: timestamps, channelCount: layout.channelCount, jointCount: layout.jointCount,
            frameRate: frameRate)
        for channel in 0..<layout.channelCount where timestamps.count > 1 {
            sequence[1, channel, 4] = 0
        }
        return sequence
    }

    struct RoundTrip: Sendable, CustomTestStringConvertible {
        var includesTimestamps: Bool
        var timestamps: [Double]
        var testDescription: String { includesTimestamps ? "with timestamps" : "without timestamps" }
    }

    @Test(
        "vision18 sequences survive a CSV round trip bit for bit",
        arguments: [
            RoundTrip(includesTimestamps: true, timestamps: [0, 0.031, 0.07, 0.1, 0.1333333333333333]),
            RoundTrip(includesTimestamps: false, timestamps: PoseSequence.uniformTimestamps(frameCount: 5, frameRate: 30)),
        ])
    func roundTrip(_ trip: RoundTrip) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("clip.csv")
        let original = Self.vision18Sequence(timestamps: trip.timestamps, frameRate: 30)
        try KeypointCSVWriter(includesTimestamps: trip.includesTimestamps).write(original, layout: .vision18, to: url)

        let imported = try KeypointCSVImporter().importSequences(from: url, layout: .vision18, frameRate: 30, label: "wave")
        #expect(imported == [LabeledSequence(id: url.path, label: "wave", group: url.path, sequence: original)])
    }

    @Test("The header names vision18's columns joint-major")
    func headerOrder() {
        let sequence = Self.vision18Sequence(timestamps: [0], frameRate: 30)
        let header = KeypointCSVWriter().text(for: sequence, layout: .vision18).prefix { $0 != "\n" }
        #expect(header.hasPrefix("timestamp,nose.x,nose.y,nose.confidence,neck.x,"))
        #expect(header.hasSuffix(",leftEar.x,leftEar.y,leftEar.confidence"))
        #expect(header.split(separator: ",").count == 1 + 18 * 3)
    }

    @Test("Columns may come in any order; timestamps are shifted to start at 0")
    func shuffledColumns() throws {
        let directory = try TemporaryDirectory()
        let text = "\u{FEFF}right.y, timestamp ,left.x,right.x,left.y\r\n\r\n4,10.5,1,3,2\r\n8,10.75,5,7,6\r\n"
        let url = try writeFixture(text, named: "shuffled.csv", in: directory.url)
        let sequences = try KeypointCSVImporter().importSequences(from: url, layout: Self.pair, frameRate: 4, label: "x")
        let sequence = try #require(sequences.first?.sequence)

        #expect(sequence.timestamps == [0, 0.25])
        // [T, C, J] with channels (x, y) and joints (left, right).
        #expect(sequence.keypoints == [1, 3, 2, 4, 5, 7, 6, 8])
    }

    // MARK: Errors

    /// Two joints with channels x and y: columns left.x, left.y, right.x, right.y.
    static let pair = SkeletonLayout(name: "pair", joints: ["left", "right"], channels: ["x", "y"])
    static let header = "timestamp,left.x,left.y,right.x,right.y\n"

    struct BadFile: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var label: String? = "run"
        var line: Int?
        var kind: @Sendable (_ path: String) -> ImportError.Kind
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "missing, unknown and repeated columns", text: "left.x,left.y,right.z,left.x\n1,2,3,1\n", line: 1) { _ in
            .columnMismatch(layout: "pair", missing: ["right.x", "right.y"], unknown: ["right.z"], duplicated: ["left.x"])
        },
        BadFile(name: "wrong field count", text: header + "0,1,2,3,4\n0.1,1,2,3\n", line: 3) { _ in
            .wrongFieldCount(expected: 5, found: 4)
        },
        BadFile(name: "non-numeric field", text: header + "0,1,2,3,4\n0.1,1,two,3,4\n", line: 3) { _ in
            .nonNumeric(token: "two", location: .column(name: "left.y", frame: 1))
        },
        BadFile(name: "NaN", text: header + "0,1,2,nan,4\n", line: 2) { path in
            .nonFiniteValue(sampleID: path, token: "nan", location: .column(name: "right.x", frame: 0))
        },
        BadFile(name: "infinite timestamp", text: header + "inf,1,2,3,4\n", line: 2) { path in
            .nonFiniteValue(sampleID: path, token: "inf", location: .column(name: "timestamp", frame: 0))
        },
        BadFile(name: "non-increasing timestamp", text: header + "0,1,2,3,4\n0.1,1,2,3,4\n0.1,1,2,3,4\n", line: 4) { _ in
            .nonIncreasingTimestamp(previous: 0.1, found: 0.1)
        },
        // Issue 15, item 8: 1e308 trapped in resampling; 1e12 ran `validate --data` for minutes.
        BadFile(name: "last timestamp 1e308", text: header + "0,1,2,3,4\n1e308,1,2,3,4\n", line: 3) { _ in
            .timestampGapTooLong(previous: 0, found: 1e308, frames: (1e308 * 30).rounded())
        },
        BadFile(name: "timestamp gap of 1e12 s", text: header + "0,1,2,3,4\n0.1,1,2,3,4\n1e12,1,2,3,4\n", line: 4) { _ in
            .timestampGapTooLong(previous: 0.1, found: 1e12, frames: ((1e12 - 0.1) * 30).rounded())
        },
        BadFile(name: "missing label", text: header + "0,1,2,3,4\n", label: nil, line: nil) { _ in .missingLabel },
        BadFile(name: "no data rows", text: header + "\n", line: nil) { _ in .noData },
        BadFile(name: "empty file", text: "\n\n", line: nil) { _ in .emptyFile },
    ]

    @Test("Bad CSV files fail with the file, the line and what was expected", arguments: badFiles)
    func badFile(_ bad: BadFile) throws {
        let directory = try TemporaryDirectory()
        let url = try writeFixture(bad.text, named: "bad.csv", in: directory.url)
        let error = #expect(throws: ImportError.self) {
            try KeypointCSVImporter().importSequences(from: url, layout: Self.pair, frameRate: 30, label: bad.label)
        }
        #expect(error?.path == url.path)
        #expect(error?.line == bad.line)
        #expect(error?.kind == bad.kind(url.path))
    }

    @Test("A column mismatch lists the columns by name")
    func columnMismatchMessage() {
        let error = ImportError(
            path: "a.csv", line: 1,
            kind: .columnMismatch(layout: "pair", missing: ["right.x", "right.y"], unknown: ["right.z"], duplicated: []))
        #expect(error.description.hasPrefix("a.csv:1: columns do not match layout 'pair'"))
        #expect(error.description.hasSuffix("missing right.x, right.y; unknown right.z"))
        // A binary file read as CSV: control characters escaped, long names cut, long lists counted.
        let binary = ImportError(
            path: "b.csv", line: 1,
            kind: .columnMismatch(layout: "pair", missing: [], unknown: ["y\u{06}U"] + (1...11).map { "c\($0)" } + [String(repeating: "z", count: 50)],
                                  duplicated: []))
        #expect(binary.description.hasSuffix(#"unknown "y\u{06}U", c1, c2, c3, c4, c5, c6, c7, c8, c9 and 3 more"#), "\(binary.description)")
        #expect(!binary.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
        let long = ImportError(path: "c.csv", line: 1, kind: .columnMismatch(
            layout: "pair", missing: [], unknown: [String(repeating: "z", count: 50)], duplicated: []))
        #expect(long.description.hasSuffix("unknown " + String(repeating: "z", count: 40) + "…"))
    }

    // MARK: Labeled directories

    @Test("A labeled directory lists <root>/<label>/*.csv sorted by label, then name")
    func labeledDirectory() throws {
        let directory = try TemporaryDirectory()
        for name in [
            "walk/b.csv", "walk/a.csv", "run/x.CSV", "run/notes.txt", "run/.hidden.csv", ".cache/y.csv", "top.csv", "run/deeper/z.csv",
            "walk/c.csv/inner.csv",
        ] {
            _ = try writeFixture("", named: name, in: directory.url)
        }
        let entries = try LabeledDirectory.entries(in: directory.url)

        // The folder named like a file (walk/c.csv/) is listed, for its reader to fail naming it.
        #expect(entries.map(\.label) == ["run", "walk", "walk", "walk"])
        #expect(entries.map(\.url.lastPathComponent) == ["x.CSV", "a.csv", "b.csv", "c.csv"])
        #expect(entries.first?.url.path == directory.file("run/x.CSV").path)
    }

    @Test("Listing a missing directory names it")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("absent")
        let error = #expect(throws: ImportError.self) { try LabeledDirectory.entries(in: root) }
        #expect(error?.path == root.path)
    }
}
