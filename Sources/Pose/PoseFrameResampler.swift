/// Puts pose frames that arrive one at a time onto the uniform time grid of a frame rate: the
/// streaming form of ``PoseSequence/resampled(to:treatingZeroJointsAsUndetected:)``.
///
/// Fed the frames of a sequence in order and then ``finish()``, it emits exactly the frames
/// `resampled(to:)` returns for that sequence, bit for bit (the grid `t₀ + k / frameRate`, the same
/// interpolation and the same treatment of undetected joints), so a live stream gives the
/// windows a recorded file gives. A grid point is emitted once a frame after it has arrived
/// (its two neighbours are then known), so output lags input by at most one input frame.
public struct PoseFrameResampler: Sendable {
    /// A frame on the output grid.
    public struct Frame: Sendable, Equatable {
        /// Seconds, on the grid `t₀ + k / frameRate` of the first input frame's time `t₀`.
        public var timestamp: Double
        /// `[C, J]` values.
        public var keypoints: [Float]
    }

    /// Why an input frame was refused.
    public enum InputError: Error, Equatable, CustomStringConvertible {
        /// The frame's value count is not `C * J`.
        case wrongValueCount(found: Int, expected: Int)
        /// The timestamp is not finite or not after the previous one (seconds).
        case timestampNotIncreasing(Double, previous: Double?)
        /// A value is NaN or infinite, at (channel, joint).
        case nonFiniteValue(channel: Int, joint: Int)
        /// The time since the previous frame (seconds) would fill more than ``maximumFramesPerGap`` frames.
        case gapTooLong(seconds: Double, frames: Double)

        public var description: String {
            switch self {
            case let .wrongValueCount(found, expected): "a pose frame has \(found) values; the layout needs \(expected) (C × J)"
            case let .timestampNotIncreasing(time, previous?):
                "frame time \(time) s is not after the previous frame's \(previous) s; frame times must increase"
            case let .timestampNotIncreasing(time, nil): "frame time \(time) s is not a finite number of seconds"
            case let .nonFiniteValue(channel, joint): "a pose frame's channel \(channel) of joint \(joint) is not a finite number"
            case let .gapTooLong(seconds, frames):
                "the frame comes \(seconds) s after the previous one, which would be \(frames) interpolated frames "
                    + "(at most \(PoseFrameResampler.maximumFramesPerGap)); a timestamp is wrong or the recording has a gap"
            }
        }
    }

    /// The most output frames one gap between input frames may fill (about 9 hours at 30 fps):
    /// a larger gap is a wrong timestamp, not a recording (``PoseSequence/maximumFramesPerGap``,
    /// the rule the importers apply too).
    public static let maximumFramesPerGap = PoseSequence.maximumFramesPerGap

    /// Output frame rate, frames per second.
    public let frameRate: Double
    /// Channels, `C`.
    public let channelCount: Int
    /// Joints, `J`.
    public let jointCount: Int
    /// Whether an all-zero joint is undetected (body pose) rather than a reading (sensors).
    public let treatsZeroJointsAsUndetected: Bool

    private var firstTimestamp: Double?
    private var previous: (timestamp: Double, keypoints: [Float])?
    private var nextGridIndex = 0

    /// Creates a resampler.
    ///
    /// - Parameters:
    ///   - frameRate: Output frames per second; positive and finite (the caller checks).
    ///   - channelCount: `C`. - jointCount: `J`.
    ///   - treatingZeroJointsAsUndetected: As in `PoseSequence.resampled(to:treatingZeroJointsAsUndetected:)`.
    public init(frameRate: Double, channelCount: Int, jointCount: Int, treatingZeroJointsAsUndetected: Bool = true) {
        self.frameRate = frameRate
        self.channelCount = channelCount
        self.jointCount = jointCount
        self.treatsZeroJointsAsUndetected = treatingZeroJointsAsUndetected
    }

    /// Output frames so far.
    public var emittedFrameCount: Int { nextGridIndex }

    /// Takes the next input frame and returns the grid frames now complete (zero or more).
    ///
    /// - Parameters:
    ///   - timestamp: Seconds; after the previous frame's.
    ///   - keypoints: `[C, J]` values (all zeros for a frame without a person).
    /// - Throws: ``InputError`` for a wrong value count, a time that does not increase, or a
    ///   non-finite value; the frame is then ignored and the resampler is unchanged.
    public mutating func append(timestamp: Double, keypoints: [Float]) throws -> [Frame] {
        guard keypoints.count == channelCount * jointCount else {
            throw InputError.wrongValueCount(found: keypoints.count, expected: channelCount * jointCount)
        }
        guard timestamp.isFinite, previous.map({ timestamp > $0.timestamp }) ?? true else {
            throw InputError.timestampNotIncreasing(timestamp, previous: previous?.timestamp)
        }
        if let index = keypoints.firstIndex(where: { !$0.isFinite }) {
            throw InputError.nonFiniteValue(channel: (index / jointCount) % max(channelCount, 1), joint: index % jointCount)
        }
        if let previous, let frames = PoseSequence.framesOfGapTooLong(seconds: timestamp - previous.timestamp, at: frameRate) {
            throw InputError.gapTooLong(seconds: timestamp - previous.timestamp, frames: frames)
        }
        defer { previous = (timestamp, keypoints) }
        guard let first = firstTimestamp, let previous else {
            firstTimestamp = timestamp
            return []
        }
        var output: [Frame] = []
        let tolerance = PoseSequence.resamplingTolerance
        while true {
            let time = first + Double(nextGridIndex) / frameRate
            guard time < timestamp else { break }
            let weight = (time - previous.timestamp) / (timestamp - previous.timestamp)
            var values: [Float] = []
            if weight <= tolerance {
                values = previous.keypoints
            } else if weight >= 1 - tolerance {
                values = keypoints
            } else {
                values.reserveCapacity(keypoints.count)
                PoseSequence.appendInterpolatedFrame(
                    previous.keypoints[...], keypoints[...], weight: Float(weight), channelCount: channelCount, jointCount: jointCount,
                    treatingZeroJointsAsUndetected: treatsZeroJointsAsUndetected, to: &values)
            }
            output.append(Frame(timestamp: time, keypoints: values))
            nextGridIndex += 1
        }
        return output
    }

    /// Ends the stream: the grid frames up to the last input frame that were still waiting for a
    /// later neighbour (copies of the last frame, as `resampled(to:)` ends).
    public mutating func finish() -> [Frame] {
        guard let first = firstTimestamp, let previous else { return [] }
        let total = PoseSequence.resampledFrameCount(firstTimestamp: first, lastTimestamp: previous.timestamp, at: frameRate)
        var output: [Frame] = []
        while nextGridIndex < total {
            output.append(Frame(timestamp: first + Double(nextGridIndex) / frameRate, keypoints: previous.keypoints))
            nextGridIndex += 1
        }
        return output
    }
}
