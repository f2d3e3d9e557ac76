import ActionLabTestSupport
import Extraction
import FeatureCache
import Foundation
import Pose
import Testing

/// Extraction on the real data `scripts/setup` fetches (messi5.jpg and vtest.avi from Debian's
/// opencv-doc, MediaPipe's library and model); without it these fail saying to run it.
@Suite(.serialized) struct VideoPoseExtractorTests {
    static func joint(_ name: String) -> Int { SkeletonLayout.vision18.joints.firstIndex(of: name) ?? -1 }

    @Test("messi5.jpg as a one-frame input: one person, nose above hips, ankles below, all inside")
    func stillPicture() throws {
        let photo = try TestData.file("opencv/messi5.jpg")
        let extraction = try VideoPoseExtractor(options: .init(numberOfPoses: 2), frameRate: 30).extract(photo)
        let pose = extraction.sequence
        try #require(pose.frameCount == 1)
        #expect(extraction.personCounts == [1])
        #expect(pose.timestamps == [0])
        let y = { (name: String) in pose[0, 1, Self.joint(name)] }
        for hip in ["leftHip", "rightHip"] {
            #expect(y("nose") > y(hip))
            for ankle in ["leftAnkle", "rightAnkle"] { #expect(y(ankle) < y(hip)) }
        }
        #expect(pose.keypoints.allSatisfy { (0...1).contains($0) })
        #expect((0..<18).allSatisfy { pose[0, 2, $0] > 0 }, "every joint found: \(pose.keypoints)")
    }

    @Test("A clip of the photo and copies rotated 90, 180, 270: upright keypoints within 0.03 of the unrotated clip")
    func rotatedClips() throws {
        let photo = try TestData.file("opencv/messi5.jpg")
        let directory = try TemporaryDirectory()
        let extractor = VideoPoseExtractor(frameRate: 30)
        let upright = directory.file("upright.mp4")
        try FFmpeg.stillClip(of: photo, at: upright)
        let reference = try extractor.extract(upright)
        #expect(reference.sequence.frameCount == 60, "2 s at 30 fps")
        #expect(reference.personCounts.allSatisfy { $0 == 1 })
        // Stored turned clockwise by the tagged angle, so that display (counterclockwise) is upright.
        let turns = [(90, "transpose=clock"), (180, "transpose=clock,transpose=clock"), (270, "transpose=cclock")]
        for (rotation, turn) in turns {
            let clip = directory.file("rotated-\(rotation).mp4")
            try FFmpeg.stillClip(of: photo, at: clip, storedTurn: turn, rotation: rotation)
            let rotated = try extractor.extract(clip)
            #expect(rotated.rotation == rotation)
            #expect(rotated.width == reference.width && rotated.height == reference.height)
            try #require(rotated.sequence.frameCount == reference.sequence.frameCount)
            var largest: Float = 0
            for frame in 0..<reference.sequence.frameCount {
                for joint in 0..<18 where reference.sequence[frame, 2, joint] > 0.5 && rotated.sequence[frame, 2, joint] > 0.5 {
                    for channel in 0..<2 {
                        largest = max(largest, abs(reference.sequence[frame, channel, joint] - rotated.sequence[frame, channel, joint]))
                    }
                }
            }
            // Each rotated copy is encoded afresh, so its pixels differ a little: under 0.02 on the
            // AVX-512 machines this was written on, 0.026 at 90 degrees on an AMD Zen 1 (AVX2); a
            // rotation applied wrongly moves keypoints by tenths.
            #expect(largest < 0.03, "rotation \(rotation): keypoints differ by up to \(largest)")
            let nose = rotated.sequence[0, 1, Self.joint("nose")], ankle = rotated.sequence[0, 1, Self.joint("leftAnkle")]
            #expect(nose > ankle, "rotation \(rotation): upright")
        }
    }

    @Test("vtest.avi, first 10 s: 100 frames at 10 fps cached with person counts; a rerun reads the cache")
    func vtestIntoTheCache() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("vtest-10s.avi")
        try FFmpeg.run(["-i", try TestData.file("opencv/vtest.avi").path, "-t", "10", "-c", "copy", clip.path])
        let cache = try FeatureCache(directory: directory.file("cache"))
        let extractor = VideoPoseExtractor(frameRate: 10)
        let fingerprint = try extractor.fingerprint()
        var progressCalls = 0
        let first = try extractor.cachedExtraction(of: clip, cache: cache, fingerprint: fingerprint) { _ in progressCalls += 1 }
        #expect(!first.hit)
        #expect(first.extraction.sequence.frameCount == 100)
        #expect(progressCalls == 100)
        #expect(first.extraction.nominalFrameRate == 10)
        #expect(first.extraction.personCounts.count == 100)
        let entry = try #require(try cache.lookup(key: first.key))
        #expect(entry.personCounts == [first.extraction.personCounts])
        #expect(entry.metadata["width"] == "768" && entry.metadata["height"] == "576")
        let timestamps = entry.sequences[0].sequence.timestamps
        #expect(abs((timestamps.last ?? 0) - 9.9) < 1e-6)
        let second = try extractor.cachedExtraction(of: clip, cache: cache, fingerprint: fingerprint)
        #expect(second.hit && second.extraction == first.extraction)
        // Another setting is another entry.
        var other = extractor
        other.options.numberOfPoses = 3
        #expect(try other.fingerprint() != fingerprint)

        // The landmarker bundle (`features.pose.model`) is keyed by its content: a copy elsewhere is the same
        // entry, another file another entry, and a file that is not a bundle fails with MediaPipe's reason.
        let copy = directory.file("models/pose_landmarker_copy.task")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try MediaPipeAssets.modelPath(), toPath: copy.path)
        var copied = extractor
        copied.options.modelPath = copy.path
        #expect(try copied.fingerprint() == fingerprint)
        #expect(try copied.cachedExtraction(of: clip, cache: cache, fingerprint: copied.fingerprint()).hit)
        let bogus = directory.file("models/not-a-bundle.task")
        try Data("not a bundle".utf8).write(to: bogus)
        var broken = extractor
        broken.options.modelPath = bogus.path
        #expect(try broken.fingerprint() != fingerprint)
        let error = #expect(throws: ExtractionError.self) { try broken.extract(clip) }
        #expect(error.map { "\($0)".contains("Unable to open zip archive") } == true, "\(String(describing: error))")
    }

    @Test("A 30 fps clip extracted at 10 fps estimates every third frame, at exact times")
    func thinning() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try FFmpeg.stillClip(of: try TestData.file("opencv/messi5.jpg"), at: clip)
        let extraction = try VideoPoseExtractor(frameRate: 10).extract(clip)
        #expect(extraction.sequence.frameCount == 20)
        #expect(extraction.sequence.frameRate == 10)
        for (index, time) in extraction.sequence.timestamps.enumerated() { #expect(abs(time - Double(index) / 10) < 0.002) }
    }

    @Test("A truncated video fails with FFmpeg's message naming the file")
    func truncated() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try FFmpeg.stillClip(of: try TestData.file("opencv/messi5.jpg"), at: clip)
        let data = try Data(contentsOf: clip)
        let broken = directory.file("broken.mp4")
        try data.prefix(data.count / 2).write(to: broken)
        do {
            _ = try VideoPoseExtractor(frameRate: 30).extract(broken)
            Issue.record("a truncated file must fail")
        } catch let error as ExtractionError {
            #expect(error.file == broken.path)
            #expect("\(error)".contains("broken.mp4"))
        }
    }
}
