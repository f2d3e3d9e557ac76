/// Computes a model's ``KeypointStream`` from its keypoints: bones along the skeleton's tree and
/// motion between consecutive frames, as PYSKL's `JointToBone` and `ToMotion`
/// (`pyskl/datasets/pipelines/pose_related.py`) compute them before the network.
///
/// Input and output `[N, C·J, T]`, feature `c·J + j` (the trainer's layout). With `p(j)` the
/// parent of joint `j` (``Configuration/parents``; a root is its own parent) and `x` the input:
///
/// ```
/// bone      b[c, j, t] = x[c, j, t] − x[c, p(j), t]                  coordinate channels
///           b[k, j, t] = (x[k, j, t] + x[k, p(j), t]) / 2            the confidence channel k
/// motion    m[c, j, t] = y[c, j, t+1] − y[c, j, t]     for t < T − 1, coordinate channels
///           m[k, j, t] = (y[k, j, t] + y[k, j, t+1]) / 2   for t < T − 1, the confidence channel
///           m[·, ·, T − 1] = 0
/// ```
///
/// where `y` is `x` for joint motion and `b` for bone motion. A root's bone is 0 and keeps its
/// confidence. The confidence channel is averaged, not differenced, as PYSKL does for 2-D pose
/// with scores (its `openpose` and `coco` layouts); a layout without a confidence channel (a 3-D
/// skeleton, sensors) differences every channel. Every output is a fixed linear combination of
/// two inputs, so the backward pass is the transposed combination and the layer has no
/// parameters and no state.
public final class KeypointStreamLayer: Layer {
    /// The stream and the skeleton it is computed on.
    public struct Configuration: Codable, Hashable, Sendable {
        /// The stream.
        public var stream: KeypointStream
        /// Channels per joint, `C`.
        public var channelCount: Int
        /// The parent of every joint along the bone tree, `J` entries; a root is its own parent.
        public var parents: [Int]
        /// The channel of detection confidence, averaged instead of differenced; nil for none.
        public var confidenceChannel: Int?

        /// Joints per frame, `J`.
        public var jointCount: Int { parents.count }

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - stream: The stream to compute.
        ///   - channelCount: Channels per joint, `C`.
        ///   - parents: Each joint's parent (``parents(jointCount:edges:roots:)``).
        ///   - confidenceChannel: The confidence channel, or nil.
        public init(stream: KeypointStream, channelCount: Int, parents: [Int], confidenceChannel: Int?) {
            self.stream = stream
            self.channelCount = channelCount
            self.parents = parents
            self.confidenceChannel = confidenceChannel
        }

        /// Problems that make the configuration unusable, empty when it is valid.
        public var problems: [String] {
            var problems: [String] = []
            if channelCount < 1 { problems.append("the input stream needs at least one channel, got \(channelCount)") }
            if parents.isEmpty { problems.append("the input stream needs at least one joint") }
            if let bad = parents.first(where: { !(0..<parents.count).contains($0) }) {
                problems.append("bone parent \(bad) is not one of \(parents.count) joints")
            }
            if let confidenceChannel, !(0..<channelCount).contains(confidenceChannel) {
                problems.append("confidence channel \(confidenceChannel) is not one of \(channelCount) channels")
            }
            if stream.usesBones && parents.enumerated().allSatisfy({ $0.offset == $0.element }) {
                problems.append("the \(stream.rawValue) stream needs bones, and the layout has none (every joint is a root)")
            }
            return problems
        }

        /// ``problems`` plus a check that the skeleton fits a model's `inputChannels` (`C·J`
        /// values per frame).
        public func problems(forInputChannels inputChannels: Int) -> [String] {
            var problems = self.problems
            if channelCount * jointCount != inputChannels {
                problems.append("the input stream covers \(channelCount)·\(jointCount) values per frame, not inputChannels \(inputChannels)")
            }
            return problems
        }

        /// Each joint's parent in the breadth-first trees of the skeleton graph.
        ///
        /// Each connected part of the graph is a tree grown from its root: the first of `roots`
        /// that lies in it, else its lowest-numbered joint. A joint without edges is its own
        /// root. This is the bone direction PYSKL's `JointToBone` pairs encode for NTU RGB+D
        /// (each joint minus its neighbour toward the spine centre).
        ///
        /// - Parameters:
        ///   - jointCount: `J`.
        ///   - edges: Undirected bones `(i, j)`; pairs naming no joint are ignored.
        ///   - roots: Preferred roots, such as the graph's centre joint.
        /// - Returns: `J` parents.
        public static func parents(jointCount: Int, edges: [(Int, Int)], roots: [Int] = []) -> [Int] {
            var neighbours = [[Int]](repeating: [], count: max(0, jointCount))
            for (i, j) in edges where (0..<jointCount).contains(i) && (0..<jointCount).contains(j) && i != j {
                neighbours[i].append(j)
                neighbours[j].append(i)
            }
            var parents = [Int?](repeating: nil, count: max(0, jointCount))
            let starts = roots.filter { (0..<jointCount).contains($0) } + Array(0..<max(0, jointCount))
            for root in starts where parents[root] == nil {
                parents[root] = root
                var queue = [root]
                var head = 0
                while head < queue.count {
                    let joint = queue[head]
                    head += 1
                    for next in neighbours[joint].sorted() where parents[next] == nil {
                        parents[next] = joint
                        queue.append(next)
                    }
                }
            }
            return parents.enumerated().map { $0.element ?? $0.offset }
        }
    }

    /// The stream and skeleton.
    public let configuration: Configuration
    private var lastShape: [Int] = [0, 0, 0]

    /// Creates the layer.
    ///
    /// - Parameter configuration: Must have no ``Configuration/problems``.
    public init(configuration: Configuration) {
        precondition(configuration.problems.isEmpty, configuration.problems.joined(separator: "; "))
        self.configuration = configuration
    }

    /// The two weights of a channel: `(1, −1)` for a difference, `(1/2, 1/2)` for the
    /// confidence channel's mean.
    private func weights(channel: Int) -> (first: Float, second: Float) {
        channel == configuration.confidenceChannel ? (0.5, 0.5) : (1, -1)
    }

    /// Computes the stream.
    ///
    /// - Parameters:
    ///   - x: Windows `[N, C·J, T]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: The stream, `[N, C·J, T]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        let c = configuration
        precondition(x.rank == 3 && x.shape[1] == c.channelCount * c.jointCount,
                     "KeypointStreamLayer expects [N, \(c.channelCount * c.jointCount), T], got \(x.shape)")
        lastShape = x.shape
        var y = x
        if c.stream.usesBones { y = bones(y) }
        if c.stream.usesMotion { y = motion(y) }
        return y
    }

    /// Back-propagates through the fixed combinations.
    ///
    /// - Parameter gradOutput: ∂loss/∂output, `[N, C·J, T]`.
    /// - Returns: ∂loss/∂input, `[N, C·J, T]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        precondition(gradOutput.shape == lastShape, "KeypointStreamLayer.backward: gradient shape \(gradOutput.shape), expected \(lastShape)")
        var gradient = gradOutput
        if configuration.stream.usesMotion { gradient = motionBackward(gradient) }
        if configuration.stream.usesBones { gradient = bonesBackward(gradient) }
        return gradient
    }

    // MARK: - Bones and motion

    /// Calls `body(row, parentRow, a, b)` for the row of every channel and joint of every
    /// window: `bone[row + t] = a · x[row + t] + b · x[parentRow + t]`.
    private func forEachBoneRow(batch: Int, length: Int, _ body: (Int, Int, Float, Float) -> Void) {
        let c = configuration
        for n in 0..<batch {
            for channel in 0..<c.channelCount {
                let (a, b) = weights(channel: channel)
                let base = (n * c.channelCount + channel) * c.jointCount
                for joint in 0..<c.jointCount { body((base + joint) * length, (base + c.parents[joint]) * length, a, b) }
            }
        }
    }

    /// Calls `body(row, next, this)` for the row of every channel and joint of every window:
    /// `motion[row + t] = next · y[row + t + 1] + this · y[row + t]` for `t < T − 1`.
    private func forEachMotionRow(batch: Int, length: Int, _ body: (Int, Float, Float) -> Void) {
        let c = configuration
        for n in 0..<batch {
            for channel in 0..<c.channelCount {
                let (next, this) = weights(channel: channel)
                for joint in 0..<c.jointCount { body(((n * c.channelCount + channel) * c.jointCount + joint) * length, next, this) }
            }
        }
    }

    private func bones(_ x: Tensor) -> Tensor {
        let (batch, length) = (x.shape[0], x.shape[2])
        var output = Tensor(zeros: x.shape)
        x.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { y in
                forEachBoneRow(batch: batch, length: length) { row, parentRow, a, b in
                    for t in 0..<length { y[row + t] = a * input[row + t] + b * input[parentRow + t] }
                }
            }
        }
        return output
    }

    private func bonesBackward(_ gradOutput: Tensor) -> Tensor {
        let (batch, length) = (gradOutput.shape[0], gradOutput.shape[2])
        var gradInput = Tensor(zeros: gradOutput.shape)
        gradOutput.withUnsafeBufferPointer { g in
            gradInput.withUnsafeMutableBufferPointer { dx in
                forEachBoneRow(batch: batch, length: length) { row, parentRow, a, b in
                    for t in 0..<length {
                        dx[row + t] += a * g[row + t]
                        dx[parentRow + t] += b * g[row + t]
                    }
                }
            }
        }
        return gradInput
    }

    private func motion(_ x: Tensor) -> Tensor {
        let (batch, length) = (x.shape[0], x.shape[2])
        var output = Tensor(zeros: x.shape)
        guard length > 1 else { return output }
        x.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { y in
                forEachMotionRow(batch: batch, length: length) { row, next, this in
                    for t in 0..<(length - 1) { y[row + t] = next * input[row + t + 1] + this * input[row + t] }
                }
            }
        }
        return output
    }

    private func motionBackward(_ gradOutput: Tensor) -> Tensor {
        let (batch, length) = (gradOutput.shape[0], gradOutput.shape[2])
        var gradInput = Tensor(zeros: gradOutput.shape)
        guard length > 1 else { return gradInput }
        gradOutput.withUnsafeBufferPointer { g in
            gradInput.withUnsafeMutableBufferPointer { dx in
                forEachMotionRow(batch: batch, length: length) { row, next, this in
                    for t in 0..<(length - 1) {
                        dx[row + t + 1] += next * g[row + t]
                        dx[row + t] += this * g[row + t]
                    }
                }
            }
        }
        return gradInput
    }
}
