import ActionLabTestSupport
import Foundation
import Pose
import Testing

@Suite struct UEATimeSeriesImporterTests {
    // MARK: Real files from sktime 1.2.0

    struct RealFile: Sendable, CustomTestStringConvertible {
        var path: String
        var layout: SkeletonLayout
        var count: Int
        var length: Int
        var labels: [String: Int]
        var testDescription: String { path }
    }

    static let basicMotionsLabels = ["Standing": 10, "Running": 10, "Walking": 10, "Badminton": 10]

    static let realFiles: [RealFile] = [
        RealFile(
            path: "uea/BasicMotions/BasicMotions_TRAIN.ts", layout: .accelerometerGyroscope, count: 40, length: 100,
            labels: basicMotionsLabels),
        RealFile(
            path: "uea/BasicMotions/BasicMotions_TEST.ts", layout: .accelerometerGyroscope, count: 40, length: 100,
            labels: basicMotionsLabels),
        RealFile(path: "uea/GunPoint/GunPoint_TRAIN.ts", layout: .univariate, count: 50, length: 150, labels: ["1": 24, "2": 26]),
        RealFile(path: "uea/GunPoint/GunPoint_TEST.ts", layout: .univariate, count: 150, length: 150, labels: ["1": 76, "2": 74]),
    ]

    @Test("Real UEA/UCR files import with the published shapes and labels", arguments: realFiles)
    func realFile(_ file: RealFile) throws {
        let url = try TestData.file(file.path)
        let sequences = try UEATimeSeriesImporter().importSequences(from: url, layout: file.layout, frameRate: 10, label: nil)

        #expect(sequences.count == file.count)
        for sequence in sequences {
            #expect(sequence.sequence.frameCount == file.length)
            #expect(sequence.sequence.channelCount == file.layout.channelCount)
            #expect(sequence.sequence.jointCount == file.layout.jointCount)
            #expect(sequence.sequence.firstNonFiniteValue() == nil)
        }
        #expect(Dictionary(grouping: sequences, by: \.label).mapValues(\.count) == file.labels)
        #expect(sequences.map(\.id) == sequences.indices.map { "\(url.path)#\($0)" })
        #expect(sequences.allSatisfy { $0.group == $0.id })
    }

    @Test("BasicMotions maps dimensions joint-major and keeps the file's values")
    func basicMotionsValues() throws {
        let url = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let sequences = try UEATimeSeriesImporter().importSequences(
            from: url, layout: .accelerometerGyroscope, frameRate: 10, label: nil)
        let first = try #require(sequences.first)
        // The file's first number: accelerometer x at step 0.
        #expect(first.sequence[0, 0, 0] == Float(0.079106))
        #expect(first.label == "Standing")
        #expect(first.sequence.timestamps[1] == 0.1)
        #expect(first.sequence.frameRate == 10)
        // The file's last number: gyroscope z at step 99 of the last row.
        let last = try #require(sequences.last)
        #expect(last.sequence[99, 2, 1] == Float(0.428803))
        #expect(last.label == "Badminton")
    }

    // MARK: Hand-written fixtures

    /// A two-dimension layout: one joint with channels x and y.
    static let pair = SkeletonLayout(name: "pair", joints: ["p"], channels: ["x", "y"])

    /// A header whose `@data` is line 10, so the first data row is line 11.
    static let header = """
        # A tiny problem.
        @problemName Tiny
        @timeStamps false
        @missing false
        @univariate false
        @dimensions 2
        @equalLength true
        @seriesLength 3
        @classLabel true a b
        @data
        """

    @Test("Header keywords are case-insensitive; comments, blank lines, CRLF and unknown keywords are accepted")
    func lenientHeader() throws {
        let directory = try TemporaryDirectory()
        let text = "#c\r\n@PROBLEMNAME Tiny\r\n\r\n@TimeStamps FALSE\r\n@somethingNew 42\r\n@UNIVARIATE false\r\n"
            + "@Dimensions 2\r\n@classlabel TRUE a b\r\n@DATA\r\n# between rows\r\n1,2,3:4,5,6:a\r\n\r\n7, 8:9,10 : b\r\n"
        let url = try writeFixture(text, named: "lenient.ts", in: directory.url)
        let sequences = try UEATimeSeriesImporter().importSequences(from: url, layout: Self.pair, frameRate: 2, label: nil)

        #expect(sequences.map(\.label) == ["a", "b"])
        #expect(sequences.map(\.sequence.frameCount) == [3, 2])  // No @equalLength: lengths may vary.
        #expect(sequences[0].sequence.keypoints == [1, 4, 2, 5, 3, 6])
        #expect(sequences[1].sequence.timestamps == [0, 0.5])
        #expect(sequences[1].id == "\(url.path)#1")
    }

    /// Issue 15, item 15: a file with CR-only line ends was one line, "empty".
    @Test("Lines may end in LF, CRLF or a lone CR, after a UTF-8 byte order mark", arguments: ["\n", "\r\n", "\r"])
    func lineEnds(_ end: String) throws {
        let directory = try TemporaryDirectory()
        let text = "\u{FEFF}@problemName T" + end + "@dimensions 2" + end + "@classLabel true a b" + end + "@data" + end
            + "1,2:3,4:a" + end + "5:6:b" + end
        let url = try writeFixture(text, named: "ends.ts", in: directory.url)
        let sequences = try UEATimeSeriesImporter().importSequences(from: url, layout: Self.pair, frameRate: 2, label: nil)
        #expect(sequences.map(\.label) == ["a", "b"])
        #expect(sequences[0].sequence.keypoints == [1, 3, 2, 4])
    }

    @Test("A UTF-16 file is refused as not UTF-8, not echoed")
    func utf16File() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("utf16.ts")
        try (Data([0xFF, 0xFE]) + Data("@problemName T\n".utf8)).write(to: url)
        let error = #expect(throws: ImportError.self) {
            try UEATimeSeriesImporter().importSequences(from: url, layout: Self.pair, frameRate: 2, label: nil)
        }
        #expect(error?.line == 1)
        #expect(error?.description.contains("UTF-16 byte order mark; save it as UTF-8") == true)
    }

    @Test("Unsupported features and missing values point to the documentation")
    func unsupportedFeaturesNameTheReadme() throws {
        let directory = try TemporaryDirectory()
        for text in ["@problemName T\n@timeStamps true\n@classLabel true a\n@data\n1:a\n",
                     "@problemName T\n@missing true\n@classLabel true a\n@dimensions 2\n@data\n1,?:2:a\n"] {
            let url = try writeFixture(text, named: "t.ts", in: directory.url)
            let error = #expect(throws: ImportError.self) {
                try UEATimeSeriesImporter().importSequences(from: url, layout: Self.pair, frameRate: 2, label: nil)
            }
            #expect(error?.description.contains("(README, 'Manifest reference', format \"uea\")") == true, "\(String(describing: error))")
        }
    }

    @Test("Six dimensions map onto accelerometer x, y, z, then gyroscope x, y, z")
    func jointMajorMapping() throws {
        let directory = try TemporaryDirectory()
        // Dimension d holds d * 10 + t at step t.
        let row = (0..<6).map { d in (0..<4).map { t in String(d * 10 + t) }.joined(separator: ",") }
        let text = "@problemName M\n@timeStamps false\n@univariate false\n@dimensions 6\n@equalLength true\n"
            + "@seriesLength 4\n@classLabel true Walking\n@data\n" + row.joined(separator: ":") + ":Walking\n"
        let url = try writeFixture(text, named: "six.ts", in: directory.url)
        let sequences = try UEATimeSeriesImporter().importSequences(
            from: url, layout: .accelerometerGyroscope, frameRate: 10, label: nil)
        let sequence = try #require(sequences.first?.sequence)

        for t in 0..<4 {
            for joint in 0..<2 {
                for channel in 0..<3 {
                    #expect(sequence[t, channel, joint] == Float((joint * 3 + channel) * 10 + t))
                }
            }
        }
    }

    @Test("Rows of a file declared @classLabel false take the caller's label")
    func unlabeledFile() throws {
        let directory = try TemporaryDirectory()
        let text = "@problemName U\n@timeStamps false\n@univariate true\n@classLabel false\n@data\n1,2,3\n4,5\n"
        let url = try writeFixture(text, named: "unlabeled.ts", in: directory.url)
        let sequences = try UEATimeSeriesImporter().importSequences(from: url, layout: .univariate, frameRate: 1, label: "wave")

        #expect(sequences.map(\.label) == ["wave", "wave"])
        #expect(sequences.map(\.sequence.keypoints) == [[1, 2, 3], [4, 5]])
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var line: Int?
        var kind: @Sendable (_ path: String) -> ImportError.Kind
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "ragged row", text: header + "\n1,2,3:4,5,6:a\n1,2,3:4,5:b\n", line: 12) { _ in
            .raggedRow(dimension: 1, expectedLength: 3, foundLength: 2)
        },
        BadFile(name: "row shorter than @seriesLength", text: header + "\n1,2:4,5:a\n", line: 11) { _ in
            .raggedRow(dimension: 0, expectedLength: 3, foundLength: 2)
        },
        BadFile(name: "wrong dimension count", text: header + "\n1,2,3:4,5,6:a\n1,2,3:b\n", line: 12) { _ in
            .wrongDimensionCount(expected: 2, found: 1)
        },
        BadFile(name: "row without its label", text: header + "\n1,2,3\n", line: 11) { _ in
            .wrongDimensionCount(expected: 2, found: 0)
        },
        BadFile(name: "NaN", text: header + "\n1,2,3:4,5,6:a\n1,2,3:4,NaN,6:b\n", line: 12) { path in
            .nonFiniteValue(sampleID: "\(path)#1", token: "NaN", location: .series(dimension: 1, position: 1))
        },
        BadFile(name: "infinity", text: header + "\n-inf,2,3:4,5,6:a\n", line: 11) { path in
            .nonFiniteValue(sampleID: "\(path)#0", token: "-inf", location: .series(dimension: 0, position: 0))
        },
        BadFile(name: "beyond Float32", text: header + "\n1,2,3:4,5,1e40:a\n", line: 11) { path in
            .nonFiniteValue(sampleID: "\(path)#0", token: "1e40", location: .series(dimension: 1, position: 2))
        },
        BadFile(name: "non-numeric token", text: header + "\n1,2,3:4,5x,6:a\n", line: 11) { _ in
            .nonNumeric(token: "5x", location: .series(dimension: 1, position: 1))
        },
        BadFile(name: "missing value", text: header + "\n1,?,3:4,5,6:a\n", line: 11) { path in
            .missingValue(sampleID: "\(path)#0", location: .series(dimension: 0, position: 1))
        },
        BadFile(name: "label not declared", text: header + "\n1,2,3:4,5,6:c\n", line: 11) { _ in
            .undeclaredLabel(found: "c", declared: ["a", "b"])
        },
        BadFile(name: "missing @data", text: "@problemName Tiny\n@classLabel true a\n# no data\n", line: nil) { _ in
            .missingDataSection
        },
        BadFile(name: "data before @data", text: "@problemName Tiny\n1,2,3:4,5,6:a\n@data\n", line: 2) { _ in
            .dataBeforeDataSection
        },
        BadFile(name: "header line after @data", text: header + "\n@data\n", line: 11) { _ in
            .malformedHeader(keyword: "@data", expected: "only series rows after @data", found: "@data")
        },
        BadFile(name: "empty file", text: "", line: nil) { _ in .emptyFile },
        BadFile(name: "only comments", text: "# nothing\n\n", line: nil) { _ in .emptyFile },
        BadFile(name: "no series", text: header + "\n\n# none\n", line: nil) { _ in .noData },
        BadFile(name: "malformed header value", text: "@problemName Tiny\n@seriesLength many\n", line: 2) { _ in
            .malformedHeader(keyword: "@seriesLength", expected: "a positive integer", found: "many")
        },
        BadFile(name: "malformed flag", text: "@univariate maybe\n", line: 1) { _ in
            .malformedHeader(keyword: "@univariate", expected: "true or false", found: "maybe")
        },
        BadFile(name: "bare @", text: "@ data\n", line: 1) { _ in
            .malformedHeader(keyword: "@", expected: "a keyword right after '@'", found: "@ data")
        },
        BadFile(name: "timestamped series", text: "@problemName T\n@timeStamps true\n@data\n(0,1):a\n", line: 2) { _ in
            .unsupported(feature: "timestamped series (@timeStamps true); convert to equally spaced values (README, 'Manifest reference', format \"uea\")")
        },
        BadFile(
            name: "dimensions differ from the layout",
            text: header.replacingOccurrences(of: "@dimensions 2", with: "@dimensions 3") + "\n", line: 6
        ) { _ in
            .layoutMismatch(layout: "pair", expectedDimensions: 2, foundDimensions: 3)
        },
        BadFile(name: "missing @classLabel", text: "@problemName T\n@dimensions 2\n@data\n1:2\n", line: 3) { _ in
            .missingHeader(keyword: "@classLabel")
        },
        BadFile(name: "no label anywhere", text: "@problemName T\n@classLabel false\n@data\n1:2\n", line: 2) { _ in
            .missingLabel
        },
    ]

    @Test("Bad files fail with the file, the line and what was expected", arguments: badFiles)
    func badFile(_ bad: BadFile) throws {
        let directory = try TemporaryDirectory()
        let url = try writeFixture(bad.text, named: "bad.ts", in: directory.url)
        let error = #expect(throws: ImportError.self) {
            try UEATimeSeriesImporter().importSequences(from: url, layout: Self.pair, frameRate: 10, label: nil)
        }
        #expect(error?.path == url.path)
        #expect(error?.line == bad.line)
        #expect(error?.kind == bad.kind(url.path))
        let location = bad.line.map { "\(url.path):\($0): " } ?? "\(url.path): "
        #expect(error?.description.hasPrefix(location) == true)
    }

    @Test("A file that cannot be read names the file")
    func unreadable() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("absent.ts")
        let error = #expect(throws: ImportError.self) {
            try UEATimeSeriesImporter().importSequences(from: url, layout: .univariate, frameRate: 10, label: nil)
        }
        #expect(error?.path == url.path)
        #expect(error?.line == nil)
    }
}
