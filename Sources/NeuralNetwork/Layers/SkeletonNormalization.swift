/// Centres a 3-D skeleton window on its hip and scales it by its spine length, so that a model
/// sees the motion and not where the subject stood or how tall they are.
///
/// Input and output `[N, C·J, T]`, feature `c·J + j` (the trainer's layout), coordinates in
/// metres (Kinect v1: x, y, z). For each window `n`, with `p_{j,t}` the coordinate channels of
/// joint `j` at frame `t` and a joint *detected* unless all its coordinates are exactly 0 (how
/// ActionLab marks undetected joints and padded frames):
///
/// ```
/// centre  c = p_{centre, r},  r = the first frame whose centre joint is detected (c = 0 if none)
/// scale   s = mean over frames F where both spine joints are detected of ‖p_{top,t} − p_{base,t}‖;
///         s = 1 when F is empty or s ≤ 1e-6
/// output  p'_{j,t} = (p_{j,t} − c) / s   for detected joints;   p'_{j,t} = 0 for undetected ones
/// ```
///
/// The centre is one point per window, not per frame, so walking, jogging or sitting down keep
/// their displacement; the reference is PYSKL's `PreNormalize3D` (`pyskl/datasets/pipelines/
/// pose_related.py`), which subtracts the first frame's body centre, with the scale by spine
/// length added (hip centre to shoulder centre on Kinect v1) so that subjects of different
/// heights and distances match. Channels other than the coordinates pass through. The layer has
/// no parameters and no state: exported models take raw keypoints in metres.
///
/// The backward pass is exact (the centre and the scale depend on the input), except that the
/// detection mask is piecewise constant and passes no gradient.
public final class SkeletonNormalization: Layer {
    /// Where the coordinates and the reference joints are.
    public struct Configuration: Codable, Hashable, Sendable {
        /// Channels per joint, `C`.
        public var channelCount: Int
        /// Joints per frame, `J`.
        public var jointCount: Int
        /// The coordinate channels (x, y, z), moved and scaled.
        public var coordinateChannels: [Int]
        /// The joint the window is centred on (Kinect v1's `hipCenter`).
        public var centreJoint: Int
        /// The joint at the bottom of the spine (`hipCenter`).
        public var spineBase: Int
        /// The joint at the top of the spine (`shoulderCenter`).
        public var spineTop: Int

        /// Creates a configuration.
        public init(channelCount: Int, jointCount: Int, coordinateChannels: [Int], centreJoint: Int, spineBase: Int, spineTop: Int) {
            self.channelCount = channelCount
            self.jointCount = jointCount
            self.coordinateChannels = coordinateChannels
            self.centreJoint = centreJoint
            self.spineBase = spineBase
            self.spineTop = spineTop
        }

        /// Problems that make the configuration unusable, empty when it is valid.
        public var problems: [String] {
            var problems: [String] = []
            if coordinateChannels.isEmpty || coordinateChannels.contains(where: { !(0..<channelCount).contains($0) })
                || Set(coordinateChannels).count != coordinateChannels.count {
                problems.append("coordinate channels must be distinct channels of \(channelCount), got \(coordinateChannels)")
            }
            for (name, joint) in [("centreJoint", centreJoint), ("spineBase", spineBase), ("spineTop", spineTop)]
            where !(0..<jointCount).contains(joint) {
                problems.append("\(name) \(joint) is not one of \(jointCount) joints")
            }
            if spineBase == spineTop { problems.append("the spine's two joints must differ, got \(spineBase) twice") }
            return problems
        }
    }

    /// A scale at or below this is replaced by 1.
    public static let minimumScale: Float = 1e-6

    /// The layout of the coordinates.
    public let configuration: Configuration

    /// What the backward pass needs from the last forward, per window.
    private struct Cache {
        var input = Tensor(zeros: [0])
        /// Each window's centre, `[N, K]` for the K coordinate channels.
        var centres: [Float] = []
        /// Each window's reference frame, or nil when its centre joint is never detected.
        var referenceFrames: [Int?] = []
        /// Each window's scale (1 when clamped).
        var scales: [Float] = []
        /// Whether the window's scale is its mean spine length (not clamped to 1).
        var scaleIsSpineLength: [Bool] = []
    }

    private var cache = Cache()

    /// Creates the layer.
    ///
    /// - Parameter configuration: Where the coordinates and joints are; must have no ``Configuration/problems``.
    public init(configuration: Configuration) {
        precondition(configuration.problems.isEmpty, configuration.problems.joined(separator: "; "))
        self.configuration = configuration
    }

    /// Centres and scales every window.
    ///
    /// - Parameters:
    ///   - x: Windows `[N, C·J, T]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: `[N, C·J, T]`, coordinates normalized, other channels unchanged.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        let c = configuration
        precondition(x.rank == 3 && x.shape[1] == c.channelCount * c.jointCount,
                     "SkeletonNormalization expects [N, \(c.channelCount * c.jointCount), T], got \(x.shape)")
        let (batch, length) = (x.shape[0], x.shape[2])
        let coordinates = c.coordinateChannels
        var next = Cache(input: x)
        next.centres = [Float](repeating: 0, count: batch * coordinates.count)
        var output = x
        x.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { y in
                for n in 0..<batch {
                    func index(_ channel: Int, _ joint: Int, _ t: Int) -> Int { ((n * c.channelCount + channel) * c.jointCount + joint) * length + t }
                    func detected(_ joint: Int, _ t: Int) -> Bool { coordinates.contains { input[index($0, joint, t)] != 0 } }
                    let reference = (0..<length).first { detected(c.centreJoint, $0) }
                    for (k, channel) in coordinates.enumerated() {
                        next.centres[n * coordinates.count + k] = reference.map { input[index(channel, c.centreJoint, $0)] } ?? 0
                    }
                    var lengthSum: Float = 0
                    var frames: Float = 0
                    for t in 0..<length where detected(c.spineBase, t) && detected(c.spineTop, t) {
                        var squares: Float = 0
                        for channel in coordinates {
                            let d = input[index(channel, c.spineTop, t)] - input[index(channel, c.spineBase, t)]
                            squares += d * d
                        }
                        lengthSum += squares.squareRoot()
                        frames += 1
                    }
                    let spine = frames > 0 ? lengthSum / frames : 0
                    let isSpine = spine > Self.minimumScale
                    let scale = isSpine ? spine : 1
                    for t in 0..<length {
                        for joint in 0..<c.jointCount {
                            let isDetected = detected(joint, t)
                            for (k, channel) in coordinates.enumerated() {
                                let i = index(channel, joint, t)
                                y[i] = isDetected ? (input[i] - next.centres[n * coordinates.count + k]) / scale : 0
                            }
                        }
                    }
                    next.referenceFrames.append(reference)
                    next.scales.append(scale)
                    next.scaleIsSpineLength.append(isSpine)
                }
            }
        }
        cache = next
        return output
    }

    /// Back-propagates through the centre and the scale.
    ///
    /// With `m` the detection mask, `d_{j,t} = p_{j,t} − c` and `g = ∂L/∂p'`:
    /// `∂L/∂p_{j,t} = m g / s` directly; the centre adds `−Σ m g / s` to the centre joint at the
    /// reference frame; the scale (when not clamped) adds, with `∂L/∂s = −Σ m g·d / s²` and
    /// `u_t = (p_{top,t} − p_{base,t}) / ‖·‖`, `∂L/∂s · u_t / |F|` to the top joint and its
    /// negative to the base joint of every frame in `F`.
    ///
    /// - Parameter gradOutput: ∂loss/∂output, `[N, C·J, T]`.
    /// - Returns: ∂loss/∂input, `[N, C·J, T]`; other channels' gradients pass through.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let input = cache.input
        precondition(gradOutput.shape == input.shape, "SkeletonNormalization.backward: gradient shape \(gradOutput.shape)")
        let c = configuration
        let coordinates = c.coordinateChannels
        let (batch, length) = (input.shape[0], input.shape[2])
        var gradInput = gradOutput
        input.withUnsafeBufferPointer { p in
            gradOutput.withUnsafeBufferPointer { g in
                gradInput.withUnsafeMutableBufferPointer { dx in
                    for n in 0..<batch {
                        func index(_ channel: Int, _ joint: Int, _ t: Int) -> Int { ((n * c.channelCount + channel) * c.jointCount + joint) * length + t }
                        func detected(_ joint: Int, _ t: Int) -> Bool { coordinates.contains { p[index($0, joint, t)] != 0 } }
                        let scale = cache.scales[n]
                        var centreGradient = [Float](repeating: 0, count: coordinates.count)
                        var scaleGradient: Float = 0
                        for t in 0..<length {
                            for joint in 0..<c.jointCount {
                                let isDetected = detected(joint, t)
                                for (k, channel) in coordinates.enumerated() {
                                    let i = index(channel, joint, t)
                                    guard isDetected else {
                                        dx[i] = 0
                                        continue
                                    }
                                    dx[i] = g[i] / scale
                                    centreGradient[k] -= g[i] / scale
                                    scaleGradient -= g[i] * (p[i] - cache.centres[n * coordinates.count + k]) / (scale * scale)
                                }
                            }
                        }
                        if let reference = cache.referenceFrames[n] {
                            for (k, channel) in coordinates.enumerated() { dx[index(channel, c.centreJoint, reference)] += centreGradient[k] }
                        }
                        guard cache.scaleIsSpineLength[n] else { continue }
                        let frames = (0..<length).filter { detected(c.spineBase, $0) && detected(c.spineTop, $0) }
                        for t in frames {
                            var squares: Float = 0
                            for channel in coordinates {
                                let d = p[index(channel, c.spineTop, t)] - p[index(channel, c.spineBase, t)]
                                squares += d * d
                            }
                            let spine = squares.squareRoot()
                            guard spine > 0 else { continue }
                            for channel in coordinates {
                                let d = p[index(channel, c.spineTop, t)] - p[index(channel, c.spineBase, t)]
                                let share = scaleGradient * d / (spine * Float(frames.count))
                                dx[index(channel, c.spineTop, t)] += share
                                dx[index(channel, c.spineBase, t)] -= share
                            }
                        }
                    }
                }
            }
        }
        return gradInput
    }
}
