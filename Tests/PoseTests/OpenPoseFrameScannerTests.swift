import ActionLabTestSupport
import Foundation
import Testing

@testable import Pose

/// ``OpenPoseFrameScanner`` against the `JSONSerialization` path (``JSONCursor``) it stands in for.
@Suite struct OpenPoseFrameScannerTests {
    static let coco = (0..<54).map { "\(Double($0) * 1.5)" }.joined(separator: ",")

    /// Valid frames in the forms the scanner must read itself.
    static let accepted = [
        "{\"version\":1.3,\"people\":[{\"person_id\":[-1],\"pose_keypoints_2d\":[\(coco)],\"face_keypoints_2d\":[]}]}",
        " \n\t{ \"people\" : [ { \"pose_keypoints_2d\" : [ \(coco.replacingOccurrences(of: ",", with: " ,\r\n ")) ] } ] }\n ",
        "{\"people\":[{\"hand\":{\"a\":[1,{\"b\":null}],\"c\":true,\"d\":false},\"pose_keypoints_2d\":[\(coco)]}],\"z\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"}",
        "{\"pose_keypoints_2d\":[1],\"people\":[{\"pose_keypoints_2d\":null},{\"x\":1},{\"pose_keypoints_2d\":[\(coco)]}]}",
        "{\"people\":[{\"pose_keypoints_2d\":[\((0..<54).map { ["0", "-1", "12", "1.25", "-0.5e1", "3E+2", "2.5e-3", "1e0", "0.1"][$0 % 9] }.joined(separator: ","))]}]}",
        "{\"people\":[]}", "{\"people\":null}", "{}", "{\"version\":1.3}",
    ]

    /// Frames the scanner must leave to `JSONSerialization`: invalid JSON, wrong types, or forms
    /// it does not decide.
    static let declined = [
        "", "[]", "1", "{", "{\"people\":[,]}", "{\"people\":[{\"pose_keypoints_2d\":[1,]}]}", "{\"people\":[]} x",
        "{\"people\":[{\"pose_keypoints_2d\":[01]}]}", "{\"people\":[{\"pose_keypoints_2d\":[1.]}]}",
        "{\"people\":[{\"pose_keypoints_2d\":[.5]}]}", "{\"people\":[{\"pose_keypoints_2d\":[+1]}]}",
        "{\"people\":[{\"pose_keypoints_2d\":[true]}]}", "{\"people\":[{\"pose_keypoints_2d\":[null]}]}",
        "{\"people\":[{\"pose_keypoints_2d\":[\"1\"]}]}", "{\"people\":[{\"pose_keypoints_2d\":[1e400]}]}",
        "{\"people\":[{\"pose_keypoints_2d\":[-0]}]}", "{\"people\":[{\"pose_keypoints_2d\":[12345678901234567]}]}",
        "{\"people\":{}}", "{\"people\":[1]}", "{\"people\":[],\"people\":[]}", "{\"peo\\u0070le\":[]}",
        "{\"a\":\"\\ud83d\\ude00\",\"people\":[]}", "{\"a\":\"tab\there\",\"people\":[]}", "{\"a\":\"\\x\"}",
        "{\"a\":\"é\",\"people\":[]}", "{\"a\":nul}", "{\"a\" 1}", "{\"a\":1 \"b\":2}",
        String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
    ]

    static func scanned(_ text: String) -> [[Double]]? {
        Array(text.utf8).withUnsafeBufferPointer { OpenPoseFrameScanner.keypointArrays(in: $0) }
    }

    /// The arrays the `JSONSerialization` path reads, or nil when it throws.
    static func reference(_ text: String) -> [[Double]]? {
        do {
            let root = try JSONCursor.parse(Data(text.utf8), file: "frame.json")
            guard let people = try root.member("people") else { return [] }
            return try people.elements().compactMap { try $0.member("pose_keypoints_2d")?.numbers() }
        } catch {
            return nil
        }
    }

    @Test("valid frames in every JSON form: read by the scanner, with JSONSerialization's numbers", arguments: accepted)
    func sameAsFoundation(text: String) throws {
        let scanned = try #require(Self.scanned(text), "the scanner declined a valid frame")
        let reference = try #require(Self.reference(text), "the reference rejected it")
        #expect(scanned == reference)
        #expect(scanned.map { $0.map(\.bitPattern) } == reference.map { $0.map(\.bitPattern) }, "bit for bit")
    }

    /// Decimal numbers in many forms, each read bit for bit as glibc's `strtod` (correctly
    /// rounded) reads it: the fast path for short decimals must round as `strtod` does, and longer
    /// ones must fall back to it. Up to 12 significant digits `JSONSerialization` gives the same
    /// values here; it is not correctly rounded beyond (`0.0298582369875509` is
    /// 0.029858236987550895 to it) nor for `0.00000000000000000000001` (1.0000000000000001e-23),
    /// and the scanner keeps `strtod`'s. Seeded, so a failure names a reproducible case.
    @Test("decimal numbers: the scanner's values are strtod's, and JSONSerialization's up to 12 digits")
    func decimalsAreCorrectlyRounded() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            // SplitMix64 (Steele, Lea, Flood 2014).
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character("\(next() % 10)") }) }
        var numbers = [
            "0.1", "0.2", "0.3", "-0.0", "0.0", "0.0e-400", "0e5", "1.7976931348623157e308", "2.2250738585072014e-308",
            "4.9e-324", "9007199254740993.0", "123456789012345.6", "1.000000000000000000001", "0.000001234",
            "310.542", "150.999", "0.9", "1e22", "1e23", "1e-22", "1e-23", "123456789012345e22", "999999999999999e-22",
            "0.00000000000000000000001", "5e-324", "1.5e300", "-2.5E-3", "8.589973e9", "100000000000000000000000.0",
        ]
        for _ in 0..<20_000 {
            let sign = next() % 4 == 0 ? "-" : ""
            let whole = next() % 5 == 0 ? "0" : "\(1 + next() % 9)" + digits(Int(next() % 8))
            let fraction = digits(1 + Int(next() % 16))
            let exponent = next() % 3 == 0 ? "e\(Int(next() % 60) - 30)" : ""
            numbers.append(sign + whole + "." + fraction + exponent)
        }
        for start in stride(from: 0, to: numbers.count, by: 500) {
            let chunk = numbers[start..<min(start + 500, numbers.count)]
            let text = "{\"people\":[{\"pose_keypoints_2d\":[\(chunk.joined(separator: ","))]}]}"
            let scanned = try #require(Self.scanned(text), "the scanner declined \(chunk.first ?? "")…")
            let reference = try #require(Self.reference(text))
            #expect(scanned[0].count == chunk.count)
            for (index, number) in chunk.enumerated() where index < scanned[0].count {
                let mine = scanned[0][index]
                let correct = try #require(Double(number))
                if mine.bitPattern != correct.bitPattern { Issue.record("\(number): scanner \(mine), strtod \(correct)") }
                let significant = number.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber).drop { $0 == "0" }.count
                if significant <= 12, number != "0.00000000000000000000001", mine.bitPattern != reference[0][index].bitPattern {
                    Issue.record("\(number): scanner \(mine), JSONSerialization \(reference[0][index])")
                }
            }
        }
    }

    @Test("invalid or undecided frames are left to JSONSerialization", arguments: declined)
    func declines(text: String) {
        #expect(Self.scanned(text) == nil)
    }

    @Test("a frame with a syntax error still fails with the file, line and column")
    func syntaxErrorThroughImporter() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("clip/f_000000000000_keypoints.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"people\": [\n  {\"pose_keypoints_2d\": [1, 2 3]}\n]}".utf8).write(to: file)
        do {
            _ = try OpenPoseJSONImporter(imageWidth: 10, imageHeight: 10)
                .importSequences(from: file.deletingLastPathComponent(), layout: .vision18, frameRate: 30, label: "x")
            Issue.record("a file with a syntax error was accepted")
        } catch let error as ImportError {
            #expect(error.path == file.path)
            #expect(error.line == 2)
            #expect(error.description.contains("column"), "\(error)")
        }
    }
}
