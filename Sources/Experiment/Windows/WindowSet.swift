import Pose

/// Fixed-size windows cut from labelled pose sequences: the examples a model trains and is
/// scored on.
///
/// Values are stored window-major as `[N, T, C, J]` (window, frame, channel, joint), so window
/// `i` is the contiguous slice `values[i * T * C * J ..< (i + 1) * T * C * J]` and has exactly
/// Create ML's input shape `[T, C, J]` (`[window, 3, 18]` for `vision18`).
public struct WindowSet: Sendable {
    /// Flattened `[N, T, C, J]` keypoint values.
    public var values: [Float]
    /// Label index of each window, `[N]`, into `labels`.
    public var labelIndices: [Int]
    /// Index of the sequence each window was cut from, `[N]`, into `sequenceIDs`.
    public var sequenceIndices: [Int]
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

    /// Number of windows, `N`.
    public var count: Int { labelIndices.count }
    /// Values in one window, `T * C * J`.
    public var valuesPerWindow: Int { windowSize * channelCount * jointCount }
}
