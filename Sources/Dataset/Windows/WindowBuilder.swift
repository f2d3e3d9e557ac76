import Foundation
import Manifest
import NeuralNetwork
import Pose

/// Cuts pose sequences into windows of `windowSize` frames every `stride` frames.
///
/// The rule, for a sequence of `L` frames at the window frame rate:
/// - `L >= windowSize`: windows start at frames `0, stride, 2 * stride, ...` while
///   `start + windowSize <= L`; frames after the last full window are not used.
/// - `L < windowSize`: with `.zero` padding one window holds the sequence followed by zeros, as
///   Create ML pads frames without a person; with `.drop` the sequence yields no window.
///
/// A sequence recorded at another frame rate is first resampled on its timestamps to
/// `frameRate` (`PoseSequence.resampled(to:)`), so an action duration always spans the same
/// number of frames.
///
/// With ``WindowConfiguration/Sampling/uniform`` sampling every non-empty sequence instead
/// gives exactly one window: the whole sequence resampled to `windowSize` frames
/// (`PoseSequence.resampled(toFrameCount:)`); `stride`, `frameRate` and `padding` play no part.
public struct WindowBuilder: Sendable {
    /// Frames per window, `T` (action duration × frame rate).
    public var windowSize: Int
    /// Frames between the starts of consecutive windows.
    public var stride: Int
    /// Frame rate windows are built at, in frames per second.
    public var frameRate: Double
    /// Treatment of sequences shorter than a window.
    public var padding: WindowConfiguration.Padding
    /// Whether resampling keeps all-zero joints undetected (body pose) rather than interpolating
    /// them as readings (sensors); see `SkeletonLayout.marksUndetectedJointsWithZeros`.
    public var treatsZeroJointsAsUndetected: Bool
    /// Sliding windows, or one window per sequence.
    public var sampling: WindowConfiguration.Sampling

    public init(
        windowSize: Int, stride: Int, frameRate: Double, padding: WindowConfiguration.Padding, treatsZeroJointsAsUndetected: Bool = true,
        sampling: WindowConfiguration.Sampling = .sliding
    ) {
        precondition(windowSize > 0 && stride > 0 && frameRate > 0)
        self.windowSize = windowSize
        self.stride = stride
        self.frameRate = frameRate
        self.padding = padding
        self.treatsZeroJointsAsUndetected = treatsZeroJointsAsUndetected
        self.sampling = sampling
    }

    /// The builder of an experiment's `windows` section for sequences of `layout`.
    ///
    /// - Parameters:
    ///   - windows: Window size, stride, frame rate, padding and sampling.
    ///   - layout: The features' layout (whether all-zero joints are undetected).
    public init(_ windows: WindowConfiguration, layout: SkeletonLayout) {
        self.init(
            windowSize: windows.size, stride: windows.stride, frameRate: windows.frameRate, padding: windows.padding,
            treatsZeroJointsAsUndetected: layout.marksUndetectedJointsWithZeros, sampling: windows.sampling)
    }

    /// The number of ``windowStarts(frameCount:)``, without building the list.
    func windowStarts(count frameCount: Int) -> Int {
        if sampling == .uniform { return frameCount > 0 ? 1 : 0 }
        if frameCount < windowSize { return padding == .zero && frameCount > 0 ? 1 : 0 }
        return (frameCount - windowSize) / stride + 1
    }

    /// Start frames of the windows cut from a sequence of `frameCount` frames (for uniform
    /// sampling, `[0]` for any non-empty sequence).
    public func windowStarts(frameCount: Int) -> [Int] {
        if sampling == .uniform { return frameCount > 0 ? [0] : [] }
        if frameCount < windowSize { return padding == .zero && frameCount > 0 ? [0] : [] }
        return Array(Swift.stride(from: 0, through: frameCount - windowSize, by: stride))
    }

    /// Frames `sequence` has at this builder's frame rate, without resampling it: the count
    /// `PoseSequence.resampled(to:)` produces (grid points up to the last timestamp).
    public func frameCount(of sequence: PoseSequence) -> Int {
        sequence.frameRate == frameRate ? sequence.frameCount : sequence.resampledFrameCount(at: frameRate)
    }

    /// How a sequence's frames are put on the windows' time axis.
    var timing: StreamedWindowSource.Timing {
        sampling == .uniform ? .frameCount(windowSize) : .frameRate(frameRate)
    }

    /// Windows of all `sequences`, in sequence order then time order, held in memory.
    ///
    /// - Parameters:
    ///   - sequences: Labelled sequences sharing one channel and joint count.
    ///   - labels: Class names; every sequence's label must be among them.
    /// - Throws: `DatasetError.unknownLabel` if a sequence's label is not in `labels`,
    ///   `DatasetError.inconsistentShape` if sequences disagree on `C` or `J`.
    public func windows(of sequences: [LabeledSequence], labels: [String]) throws -> WindowSet {
        try windows(of: sequences.map(DatasetSequence.init), labels: labels)
    }

    /// Windows of all `sequences`, in sequence order then time order.
    ///
    /// When every sequence is in memory the windows' values are copied into the set; otherwise
    /// the set keeps references (sequence, start frame) and reads frames from the feature cache
    /// when a batch needs them (``StreamedWindowSource``). The windows are the same either way.
    ///
    /// - Parameters:
    ///   - sequences: Labelled sequences sharing one channel and joint count.
    ///   - labels: Class names; every sequence's label must be among them.
    /// - Throws: `DatasetError.unknownLabel` if a sequence's label is not in `labels`,
    ///   `DatasetError.inconsistentShape` if sequences disagree on `C` or `J`,
    ///   `DatasetError.tooManyWindows` if the windows (their values when in memory, their index
    ///   otherwise) would take more than half the memory this process may use
    ///   (`ProcessMemory.availableBytes()`: the machine's, or its cgroup's limit when lower).
    public func windows(of sequences: [DatasetSequence], labels: [String]) throws -> WindowSet {
        let labelIndex = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        let channelCount = sequences.first?.channelCount ?? 0
        let jointCount = sequences.first?.jointCount ?? 0
        var set = WindowSet(
            values: [], labelIndices: [], sequenceIndices: [], startFrames: [], sequenceIDs: [], sequenceLabelIndices: [],
            labels: labels, windowSize: windowSize, channelCount: channelCount, jointCount: jointCount)
        // Counted before anything is built: resampling a sequence recorded at a low rate up to a high
        // one multiplies its windows, and the set's arrays (and, in memory, its values) must fit.
        let windowCounts = sequences.map { Double(windowStarts(count: $0.frameCount(at: frameRate))) }
        let totalWindows = windowCounts.reduce(0, +)
        let valuesPerWindow = windowSize * channelCount * jointCount
        let allLoaded = sequences.allSatisfy(\.isLoaded)
        // Index arrays: 3 words a window; values: 4 bytes each, in memory only.
        let bytes = totalWindows * (24 + (allLoaded ? 4 * Double(valuesPerWindow) : 0))
        let limit = Double(ProcessMemory.availableBytes()) / 2
        guard bytes <= limit else {
            throw DatasetError.tooManyWindows(
                count: Int(min(totalWindows, Double(Int.max))), valuesPerWindow: valuesPerWindow, bytes: bytes, limit: limit)
        }
        var kept: [DatasetSequence] = []
        for sample in sequences {
            guard let label = labelIndex[sample.label] else {
                throw DatasetError.unknownLabel(sample.label, sequence: sample.id, known: labels)
            }
            guard sample.channelCount == channelCount, sample.jointCount == jointCount else {
                throw DatasetError.inconsistentShape(
                    sequence: sample.id,
                    expected: "[T, \(channelCount), \(jointCount)]",
                    found: "[T, \(sample.channelCount), \(sample.jointCount)]")
            }
            let starts = windowStarts(frameCount: sample.frameCount(at: frameRate))
            guard !starts.isEmpty else { continue }
            let sequenceIndex = set.sequenceIDs.count
            set.sequenceIDs.append(sample.id)
            set.sequenceLabelIndices.append(label)
            kept.append(sample)
            for start in starts {
                set.labelIndices.append(label)
                set.sequenceIndices.append(sequenceIndex)
                set.startFrames.append(start)
            }
        }
        guard kept.allSatisfy(\.isLoaded) else {
            set.source = StreamedWindowSource(
                sequences: kept, timing: timing, treatsZeroJointsAsUndetected: treatsZeroJointsAsUndetected)
            return set
        }
        // In memory: windows are consecutive per sequence, so a one-sequence source resamples each once.
        let source = StreamedWindowSource(
            sequences: kept, timing: timing, treatsZeroJointsAsUndetected: treatsZeroJointsAsUndetected, capacity: 1)
        let perWindow = set.valuesPerWindow
        set.values = try [Float](unsafeUninitializedCapacity: set.count * perWindow) { buffer, initialized in
            for window in 0..<set.count {
                let sequence = try source.sequence(at: set.sequenceIndices[window])
                WindowSet.copyFrames(
                    of: sequence, from: set.startFrames[window], windowSize: windowSize,
                    into: UnsafeMutableBufferPointer(rebasing: buffer[(window * perWindow)..<((window + 1) * perWindow)]))
            }
            initialized = set.count * perWindow
        }
        return set
    }
}
