import Dataset
import Pose
import Testing

@Suite struct WindowBuilderTests {
    /// A [T, 1, 1] sequence whose value at frame t is t + 1, so windows show which frames they hold.
    func ramp(_ frames: Int, label: String = "a", id: String = "s", frameRate: Double = 10) -> LabeledSequence {
        LabeledSequence(
            id: id, label: label, group: id,
            sequence: PoseSequence(
                keypoints: (0..<frames).map { Float($0 + 1) },
                timestamps: PoseSequence.uniformTimestamps(frameCount: frames, frameRate: frameRate),
                channelCount: 1, jointCount: 1, frameRate: frameRate))
    }

    @Test(arguments: [
        (frames: 10, size: 4, stride: 2, starts: [0, 2, 4, 6]),
        (frames: 10, size: 4, stride: 4, starts: [0, 4]),
        (frames: 4, size: 4, stride: 1, starts: [0]),
        (frames: 3, size: 4, stride: 1, starts: [0]),
        (frames: 0, size: 4, stride: 1, starts: []),
    ])
    func windowStarts(frames: Int, size: Int, stride: Int, starts: [Int]) {
        let builder = WindowBuilder(windowSize: size, stride: stride, frameRate: 10, padding: .zero)
        #expect(builder.windowStarts(frameCount: frames) == starts)
    }

    /// A sequence recorded at a very low rate, resampled up to a very high one, gives more windows
    /// than memory holds: a named error before anything is built, where the process aborted on a
    /// failed allocation of 760 GB (100 samples at 0.01 fps, windows at 1000 fps, stride 1).
    @Test func windowsPastMemoryAreAnErrorNotAnAbort() throws {
        let builder = WindowBuilder(windowSize: 100, stride: 1, frameRate: 1000, padding: .zero)
        let sequences = (0..<40).map { ramp(100, id: "s\($0)", frameRate: 0.01) }
        #expect(builder.frameCount(of: sequences[0].sequence) == 9_900_001)
        let error = #expect(throws: DatasetError.self) { try builder.windows(of: sequences, labels: ["a"]) }
        guard case let .tooManyWindows(count, valuesPerWindow, bytes, limit)? = error else {
            Issue.record("expected tooManyWindows, got \(String(describing: error))")
            return
        }
        #expect(count == 40 * (9_900_001 - 100 + 1) && valuesPerWindow == 100 && bytes > limit)
        #expect("\(try #require(error))".contains("raise windows.stride, or lower windows.frameRate"))
    }

    @Test func longSequenceGivesOverlappingWindowsInTimeOrder() throws {
        let builder = WindowBuilder(windowSize: 4, stride: 3, frameRate: 10, padding: .zero)
        let set = try builder.windows(of: [ramp(10)], labels: ["a"])
        #expect(set.count == 3)
        #expect(set.values == [1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10])
        #expect(set.sequenceIndices == [0, 0, 0])
    }

    @Test func shortSequenceIsZeroPaddedOrDropped() throws {
        let padded = try WindowBuilder(windowSize: 5, stride: 5, frameRate: 10, padding: .zero)
            .windows(of: [ramp(3)], labels: ["a"])
        #expect(padded.values == [1, 2, 3, 0, 0])
        let dropped = try WindowBuilder(windowSize: 5, stride: 5, frameRate: 10, padding: .drop)
            .windows(of: [ramp(3), ramp(6, id: "long")], labels: ["a"])
        #expect(dropped.sequenceIDs == ["long"])
        #expect(dropped.count == 1)
    }

    @Test func sequenceAtAnotherFrameRateIsResampledFirst() throws {
        // 20 frames at 20 fps become 10 frames at 10 fps: values 1, 3, 5, ...
        let set = try WindowBuilder(windowSize: 10, stride: 10, frameRate: 10, padding: .zero)
            .windows(of: [ramp(20, frameRate: 20)], labels: ["a"])
        #expect(set.count == 1)
        #expect(set.values == [1, 3, 5, 7, 9, 11, 13, 15, 17, 19])
    }

    @Test func unknownLabelIsAnError() {
        let builder = WindowBuilder(windowSize: 2, stride: 2, frameRate: 10, padding: .zero)
        #expect(throws: DatasetError.unknownLabel("b", sequence: "s", known: ["a"])) {
            try builder.windows(of: [ramp(4, label: "b")], labels: ["a"])
        }
    }

    /// Uniform sampling: every sequence, long or short, becomes one window of `windowSize`
    /// frames spanning it from first to last frame, whatever the stride, frame rate or padding.
    @Test(arguments: [(frames: 9, size: 5), (frames: 3, size: 5), (frames: 5, size: 5), (frames: 1, size: 4)])
    func uniformSamplingCoversTheWholeSequence(frames: Int, size: Int) throws {
        let builder = WindowBuilder(windowSize: size, stride: 1, frameRate: 30, padding: .drop, sampling: .uniform)
        let set = try builder.windows(of: [ramp(frames, id: "a"), ramp(frames + 4, id: "b")], labels: ["a"])
        #expect(set.count == 2 && set.windowSize == size)
        let window = try set.window(at: 0)
        // The ramp runs 1 ... frames; the window runs from its first to its last value, evenly.
        let expected = (0..<size).map { k in size == 1 || frames == 1 ? 1 : 1 + Float(k) * Float(frames - 1) / Float(size - 1) }
        for (value, wanted) in zip(window, expected) { #expect(abs(value - wanted) <= 1e-5 * wanted) }
        let longer = try set.window(at: 1)
        #expect(longer.first == 1 && abs((longer.last ?? 0) - Float(frames + 4)) <= 1e-5)
    }
}
