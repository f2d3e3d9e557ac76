import ActionLabTestSupport
import Foundation
import Pose
import Testing

@Suite struct PreExtractedKeypointImporterTests {
    /// A COCO-18 person, `[x, y, c]` per joint in pixels of a 200x100 frame, every joint at (50, 25).
    static func openPoseFrame(people: [[Double]]) -> String {
        let list = people.map { "{\"pose_keypoints_2d\": [\($0.map { "\($0)" }.joined(separator: ","))]}" }
        return "{\"version\": 1.3, \"people\": [\(list.joined(separator: ","))]}"
    }

    @Test("OpenPose folder: pixels to Vision coordinates, BODY_25 mapped, most prominent person, gaps in time")
    func openPose() throws {
        let directory = try TemporaryDirectory()
        let coco = (0..<18).flatMap { _ in [50.0, 25.0, 0.9] }
        var body25 = (0..<25).flatMap { _ in [150.0, 75.0, 0.8] }
        body25[8 * 3 + 2] = 0  // mid-hip, not in vision18
        var small = coco
        small[0] = 60
        _ = try writeFixture(Self.openPoseFrame(people: [coco]), named: "clip/clip_000000000000_keypoints.json", in: directory.url)
        _ = try writeFixture(Self.openPoseFrame(people: [body25]), named: "clip/clip_000000000002_keypoints.json", in: directory.url)
        _ = try writeFixture(Self.openPoseFrame(people: []), named: "clip/clip_000000000003_keypoints.json", in: directory.url)
        let sequences = try OpenPoseJSONImporter(imageWidth: 200, imageHeight: 100)
            .importSequences(from: directory.file("clip"), layout: .vision18, frameRate: 10, label: "wave")
        let pose = try #require(sequences.first?.sequence)
        #expect(sequences.first?.label == "wave")
        #expect(pose.timestamps == [0, 0.2, 0.3])
        #expect(pose[0, 0, 0] == 0.25 && pose[0, 1, 0] == 0.75 && abs(pose[0, 2, 0] - 0.9) < 1e-6)
        #expect(pose[1, 0, 8] == 0.75 && pose[1, 1, 8] == 0.25, "vision18's right hip is BODY_25's joint 9")
        #expect((0..<54).allSatisfy { pose.keypoints[2 * 54 + $0] == 0 }, "a frame without people is zeros")
    }

    @Test("OpenPose: bytes the caller already read are used instead of reading the file again")
    func openPoseReadFiles() throws {
        let directory = try TemporaryDirectory()
        let still = (0..<18).flatMap { _ in [50.0, 25.0, 0.9] }
        let moved = (0..<18).flatMap { _ in [150.0, 75.0, 0.9] }
        for frame in 0..<3 {
            _ = try writeFixture(Self.openPoseFrame(people: [still]), named: "clip/clip_00000000000\(frame)_keypoints.json", in: directory.url)
        }
        let importer = OpenPoseJSONImporter(imageWidth: 200, imageHeight: 100)
        let names = (0..<3).map { "clip_00000000000\($0)_keypoints.json" }
        let onDisk = try Dictionary(uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: directory.file("clip/\($0)"))) })
        let plain = try importer.importContents(from: directory.file("clip"), layout: .vision18, frameRate: 30, label: "wave")
        let given = try importer.importContents(
            from: directory.file("clip"), layout: .vision18, frameRate: 30, label: "wave", readFiles: onDisk)
        #expect(given.sequences == plain.sequences, "the same bytes give the same sequence")
        // Other bytes for frame 1: the sequence follows them, so the file was not read.
        let other = try importer.importContents(
            from: directory.file("clip"), layout: .vision18, frameRate: 30, label: "wave",
            readFiles: [names[1]: Data(Self.openPoseFrame(people: [moved]).utf8)])
        let pose = try #require(other.sequences.first?.sequence)
        #expect(pose[0, 0, 0] == 0.25 && pose[1, 0, 0] == 0.75 && pose[2, 0, 0] == 0.25)
    }

    @Test("OpenPose: a person array of the wrong size names the file and JSON path")
    func openPoseWrongSize() throws {
        let directory = try TemporaryDirectory()
        let file = try writeFixture(Self.openPoseFrame(people: [[1, 2, 3, 4]]), named: "clip/f_000000000000_keypoints.json", in: directory.url)
        #expect(throws: ImportError(path: file.path, line: nil, kind: .unexpectedJSON(
            jsonPath: "$.people[0].pose_keypoints_2d", expected: "54 (COCO) or 75 (BODY_25) numbers, x, y, confidence per joint",
            found: "an array of 4"))) {
            try OpenPoseJSONImporter(imageWidth: 10, imageHeight: 10)
                .importSequences(from: directory.file("clip"), layout: .vision18, frameRate: 30, label: "x")
        }
    }

    @Test("Kinetics-skeleton: normalized top-left coordinates flipped, label from the file, missing frames zeros")
    func kinetics() throws {
        let directory = try TemporaryDirectory()
        let pose = (0..<18).flatMap { _ in ["0.2", "0.1"] }.joined(separator: ",")
        let score = Array(repeating: "0.7", count: 18).joined(separator: ",")
        let text = """
            {"data": [{"frame_index": 1, "skeleton": [{"pose": [\(pose)], "score": [\(score)]}]},
                      {"frame_index": 3, "skeleton": []}], "label": "squat", "label_index": 4}
            """
        let file = try writeFixture(text, named: "clip.json", in: directory.url)
        let sequences = try KineticsSkeletonImporter().importSequences(from: file, layout: .vision18, frameRate: 30, label: nil)
        let sequence = try #require(sequences.first)
        #expect(sequence.label == "squat")
        #expect(sequence.sequence.frameCount == 3)
        #expect(abs(sequence.sequence[0, 0, 5] - 0.2) < 1e-6 && abs(sequence.sequence[0, 1, 5] - 0.9) < 1e-6)
        #expect(sequence.sequence.keypoints[54...].allSatisfy { $0 == 0 })
        #expect(try KineticsSkeletonImporter().importSequences(from: file, layout: .vision18, frameRate: 30, label: "mine").first?.label == "mine")
    }

    @Test("Kinetics-skeleton: detected coordinates outside [0, 1] of the kept skeleton are clamped and counted, as OpenPose's are")
    func kineticsClampedKeypointsAreCounted() throws {
        let directory = try TemporaryDirectory()
        func skeleton(x: (Int) -> String, y: (Int) -> String, score: (Int) -> String) -> String {
            let pose = (0..<18).flatMap { [x($0), y($0)] }.joined(separator: ",")
            return #"{"pose": [\#(pose)], "score": [\#((0..<18).map(score).joined(separator: ","))]}"#
        }
        // The kept (larger) skeleton has joint 4 at x = -3 and joint 10 at y = 1.25; its joint 7 is outside but undetected
        // (score 0). The small second skeleton's joint 0 is outside too, but it is not kept.
        let spread = { (joint: Int) in "\(0.1 + Double(joint) * 0.04)" }
        let kept = skeleton(
            x: { $0 == 4 ? "-3.0" : $0 == 7 ? "-2.0" : spread($0) }, y: { $0 == 10 ? "1.25" : spread($0) }, score: { $0 == 7 ? "0" : "0.8" })
        let other = skeleton(x: { $0 == 0 ? "1.5" : "0.5" }, y: { _ in "0.5" }, score: { _ in "0.6" })
        let file = try writeFixture(
            #"{"data": [{"frame_index": 1, "skeleton": [\#(kept), \#(other)]}], "label": "squat"}"#, named: "clip.json", in: directory.url)
        let imported = try KineticsSkeletonImporter().importContents(from: file, layout: .vision18, frameRate: 30, label: nil)
        #expect(imported.clamped.count == 2, "\(imported.clamped)")
        #expect(imported.clamped.first == "frame_index 1 joint \(SkeletonLayout.vision18.joints[4]) at (-3.0, 0.26)",
                "\(imported.clamped)")
        let sequence = try #require(imported.sequences.first).sequence
        #expect(sequence[0, 0, 4] == 0 && sequence[0, 1, 10] == 0, "clamped onto the border (y flipped: 1 - 1.25 -> 0)")
    }

    @Test("Kinetics-skeleton: a score array of the wrong size names its JSON path")
    func kineticsWrongSize() throws {
        let directory = try TemporaryDirectory()
        let pose = Array(repeating: "0.5", count: 36).joined(separator: ",")
        let file = try writeFixture(
            "{\"data\": [{\"frame_index\": 1, \"skeleton\": [{\"pose\": [\(pose)], \"score\": [1]}]}], \"label\": \"a\"}",
            named: "clip.json", in: directory.url)
        #expect(throws: ImportError(path: file.path, line: nil, kind: .unexpectedJSON(
            jsonPath: "$.data[0].skeleton[0].score", expected: "18 numbers (one per joint)", found: "an array of 1"))) {
            try KineticsSkeletonImporter().importSequences(from: file, layout: .vision18, frameRate: 30, label: nil)
        }
    }

    @Test("Kinetics-skeleton: a JSON syntax error gives its line and column, not Foundation's placeless message")
    func kineticsSyntaxError() throws {
        let directory = try TemporaryDirectory()
        let file = try writeFixture("{\"data\": [\n  {\"frame_index\": 1,\n   \"skeleton\": [,]}\n], \"label\": \"a\"}",
                                    named: "clip.json", in: directory.url)
        do {
            _ = try KineticsSkeletonImporter().importSequences(from: file, layout: .vision18, frameRate: 30, label: nil)
            Issue.record("a file with a syntax error was accepted")
        } catch let error as ImportError {
            #expect(error.line == 3)
            #expect(error.description.contains("column 17"), "\(error)")
            #expect(!error.description.contains("not in the correct format"), "\(error)")
        }
    }
}
