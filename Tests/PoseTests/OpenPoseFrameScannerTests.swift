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
