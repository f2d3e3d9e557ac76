import Pose

/// Fixed-size windows cut from labelled pose sequences: the examples a model trains and is
/// scored on.
///
/// A window is `[T, C, J]` (frame, channel, joint), exactly Create ML's input shape
/// (`[window, 3, 18]` for `vision18`): frames `startFrames[i] ..< startFrames[i] + T` of sequence
/// `sequenceIndices[i]`, zero-padded past the sequence's end. A set made from sequences in memory
/// stores its windows window-major in ``values`` (`[N, T, C, J]`); a set made from sequences in
/// the feature cache stores only these references and reads each window's frames when
/// ``copyWindow(_:into:)`` asks for them (``StreamedWindowSource``). Both give the same windows.
public struct WindowSet: Sendable {
    /// Flattened `[N, T, C, J]` keypoint values of an in-memory set; empty for a streamed one.
    public internal(set) var values: [Float]
    /// Label index of each window, `[N]`, into `labels`.
    public var labelIndices: [Int]
    /// Index of the sequence each window was cut from, `[N]`, into `sequenceIDs`.
    public var sequenceIndices: [Int]
    /// The first frame of each window in its sequence (at the window frame rate), `[N]`.
    public internal(set) var startFrames: [Int]
    /// Identifiers of the sequences windows were cut from (`LabeledSequence.id`).
    public var sequenceIDs: [String]
    /// Label index of each sequence, `[S]`.
    public var sequenceLabelIndices: [Int]
    /// Class names; label indices point into this array.
    public var labels: [String]
    /// Frames per window, `T`.
    public var windowSize: Int
    /// Channels, `C`.
    public var channelCount: Int
    /// Joints, `J`.
    public var jointCount: Int
    /// Where a streamed set reads its frames; nil for an in-memory set.
    var source: StreamedWindowSource?

    /// Number of windows, `N`.
    public var count: Int { labelIndices.count }
    /// Values in one window, `T * C * J`.
    public var valuesPerWindow: Int { windowSize * channelCount * jointCount }
    /// Whether the windows are read from the feature cache on demand rather than held in ``values``.
    public var isStreamed: Bool { source != nil }

    /// Writes window `index`, `[T, C, J]`, into `buffer`.
    ///
    /// - Parameters:
    ///   - index: The window, in `0..<count`.
    ///   - buffer: At least ``valuesPerWindow`` floats; the first ``valuesPerWindow`` are written.
    /// - Throws: `FeatureCacheError` if a streamed window's sequence cannot be read.
    public func copyWindow(_ index: Int, into buffer: UnsafeMutableBufferPointer<Float>) throws {
        precondition(buffer.count >= valuesPerWindow, "copyWindow: buffer of \(buffer.count) floats for \(valuesPerWindow)")
        let target = UnsafeMutableBufferPointer(rebasing: buffer[0..<valuesPerWindow])
        guard let source else {
            let start = index * valuesPerWindow
            _ = target.update(fromContentsOf: values[start..<(start + valuesPerWindow)])
            return
        }
        let sequence = try source.sequence(at: sequenceIndices[index])
        Self.copyFrames(of: sequence, from: startFrames[index], windowSize: windowSize, into: target)
    }

    /// Window `index` as a new `[T, C, J]` array.
    ///
    /// - Parameter index: The window, in `0..<count`.
    /// - Returns: ``valuesPerWindow`` values.
    /// - Throws: `FeatureCacheError` if a streamed window's sequence cannot be read.
    public func window(at index: Int) throws -> [Float] {
        try [Float](unsafeUninitializedCapacity: valuesPerWindow) { buffer, initialized in
            try copyWindow(index, into: buffer)
            initialized = valuesPerWindow
        }
    }

    /// Copies frames `start ..< start + windowSize` of `sequence` into `target`, with (0, 0, 0)
    /// frames past the sequence's end (Create ML's padding): the one definition of a window's
    /// values, for in-memory and streamed sets alike.
    static func copyFrames(
        of sequence: PoseSequence, from start: Int, windowSize: Int, into target: UnsafeMutableBufferPointer<Float>
    ) {
        let perFrame = sequence.channelCount * sequence.jointCount
        let frames = max(0, min(windowSize, sequence.frameCount - start))
        let copied = frames * perFrame
        _ = UnsafeMutableBufferPointer(rebasing: target[0..<copied])
            .update(fromContentsOf: sequence.keypoints[(start * perFrame)..<(start * perFrame + copied)])
        target[copied..<(windowSize * perFrame)].update(repeating: 0)
    }
}
