/// Centres and scales the image coordinates of every frame's skeleton, so that a model sees the
/// pose and not where or how large the person is in the picture.
///
/// Input and output `[N, C·J, T]`, feature `c·J + j` (the trainer's layout). For each window `n`
/// and frame `t`, with the detected joints `D = { j : confidence[j] > 0 }`, `|D| = n_D`, and
/// `p_j = (x_j, y_j)`:
///
/// ```
/// centre  c = p_centreJoint                 if the layout has a centre joint and it is detected
///         c = (1 / n_D) Σ_{j ∈ D} p_j        otherwise (0 when no joint is detected)
/// scale   s = (1 / n_D) Σ_{j ∈ D} ‖p_j − c‖  (the mean distance of the detected joints to the
///                                           centre); s = 1 when s ≤ 1e-6 (one joint, or none)
/// output  p'_j = (p_j − c) / s   for j ∈ D;   p'_j = (0, 0) for undetected joints
/// ```
///
/// The confidence channel (and every channel other than x and y) passes through unchanged. The
/// centre is the neck, as in OpenPose/ST-GCN preprocessing (st-gcn's Kinetics feeder centres the
/// coordinates, `feeder/feeder_kinetics.py`; Create ML's Vision-18 joint 1 is the neck), and the
/// scale is the skeleton's mean radius, which, unlike a shoulder-to-hip distance, exists whenever
/// two joints are detected. Undetected joints stay 0, as Vision pads them. The layer has no
/// parameters and no state: exported models take raw keypoints.
///
/// The backward pass is exact (the centre and the scale depend on the input), except that the
/// detection mask is piecewise constant in the confidence, whose gradient is passed through.
public final class KeypointNormalization: Layer {
    /// Where the coordinates are in a frame.
    public struct Configuration: Codable, Hashable, Sendable {
        /// Channels per joint, `C`.
        public var channelCount: Int
        /// Joints per frame, `J`.
        public var jointCount: Int
        /// The index of the x channel.
        public var xChannel: Int
        /// The index of the y channel.
        public var yChannel: Int
        /// The index of the confidence channel; a joint is detected when its confidence is > 0.
        public var confidenceChannel: Int
        /// The joint used as centre when detected (the neck), or nil to always use the mean.
        public var centreJoint: Int?

        /// Creates a configuration.
        public init(channelCount: Int, jointCount: Int, xChannel: Int, yChannel: Int, confidenceChannel: Int, centreJoint: Int?) {
            self.channelCount = channelCount
            self.jointCount = jointCount
            self.xChannel = xChannel
            self.yChannel = yChannel
            self.confidenceChannel = confidenceChannel
            self.centreJoint = centreJoint
        }

        /// Problems that make the configuration unusable, empty when it is valid.
        public var problems: [String] {
            var problems: [String] = []
            let channels = [xChannel, yChannel, confidenceChannel]
            if channels.contains(where: { !(0..<channelCount).contains($0) }) || Set(channels).count != 3 {
                problems.append("x, y and confidence must be three distinct channels of \(channelCount), got \(channels)")
            }
            if jointCount < 1 { problems.append("jointCount must be positive, got \(jointCount)") }
            if let centreJoint, !(0..<jointCount).contains(centreJoint) {
                problems.append("centreJoint \(centreJoint) is not one of \(jointCount) joints")
            }
            return problems
        }
    }

    /// A scale at or below this is replaced by 1 (a frame with fewer than two distinct joints).
    public static let minimumScale: Float = 1e-6

    /// The layout of the coordinates.
    public let configuration: Configuration

    /// What the backward pass needs from the last forward, per frame.
    private struct Cache {
        var input = Tensor(zeros: [0])
        /// `(x, y)` of each frame's centre, interleaved.
        var centres: [Float] = []
        /// Each frame's scale `s` (1 when clamped).
        var scales: [Float] = []
        /// Whether the frame's scale is the mean radius (not clamped to 1).
        var scaleIsMeanRadius: [Bool] = []
        /// Whether the frame's centre is the centre joint.
        var usedCentreJoint: [Bool] = []
    }

    private var cache = Cache()

    /// Creates the layer.
    ///
    /// - Parameter configuration: Where x, y and confidence are; must have no ``Configuration/problems``.
    public init(configuration: Configuration) {
        precondition(configuration.problems.isEmpty, configuration.problems.joined(separator: "; "))
        self.configuration = configuration
    }

    /// Centres and scales every frame.
    ///
    /// - Parameters:
    ///   - x: Windows `[N, C·J, T]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: `[N, C·J, T]`, x and y normalized, other channels unchanged.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        let (channels, joints) = (configuration.channelCount, configuration.jointCount)
        precondition(x.rank == 3 && x.shape[1] == channels * joints,
                     "KeypointNormalization expects [N, \(channels * joints), T], got \(x.shape)")
        let (batch, length) = (x.shape[0], x.shape[2])
        let frames = batch * length
        var centres = [Float](repeating: 0, count: 2 * frames)
        var scales = [Float](repeating: 1, count: frames)
        var usedCentreJoint = [Bool](repeating: false, count: frames)
        var scaleIsMeanRadius = [Bool](repeating: false, count: frames)
        var output = x
        let (xc, yc, cc) = (configuration.xChannel, configuration.yChannel, configuration.confidenceChannel)
        x.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { y in
                for n in 0..<batch {
                    for t in 0..<length {
                        let frame = n * length + t
                        func index(_ c: Int, _ j: Int) -> Int { ((n * channels + c) * joints + j) * length + t }
                        var count: Float = 0
                        var sumX: Float = 0
                        var sumY: Float = 0
                        for j in 0..<joints where input[index(cc, j)] > 0 {
                            count += 1
                            sumX += input[index(xc, j)]
                            sumY += input[index(yc, j)]
                        }
                        let divisor = max(count, 1)
                        var centre = (sumX / divisor, sumY / divisor)
                        if let joint = configuration.centreJoint, input[index(cc, joint)] > 0 {
                            centre = (input[index(xc, joint)], input[index(yc, joint)])
                            usedCentreJoint[frame] = true
                        }
                        var radiusSum: Float = 0
                        for j in 0..<joints where input[index(cc, j)] > 0 {
                            let (dx, dy) = (input[index(xc, j)] - centre.0, input[index(yc, j)] - centre.1)
                            radiusSum += (dx * dx + dy * dy).squareRoot()
                        }
                        let meanRadius = radiusSum / divisor
                        scaleIsMeanRadius[frame] = meanRadius > Self.minimumScale
                        let scale = scaleIsMeanRadius[frame] ? meanRadius : 1
                        for j in 0..<joints {
                            let detected = input[index(cc, j)] > 0
                            y[index(xc, j)] = detected ? (input[index(xc, j)] - centre.0) / scale : 0
                            y[index(yc, j)] = detected ? (input[index(yc, j)] - centre.1) / scale : 0
                        }
                        centres[2 * frame] = centre.0
                        centres[2 * frame + 1] = centre.1
                        scales[frame] = scale
                    }
                }
            }
        }
        cache = Cache(
            input: x, centres: centres, scales: scales, scaleIsMeanRadius: scaleIsMeanRadius, usedCentreJoint: usedCentreJoint)
        return output
    }

    /// Back-propagates through the centre and the scale.
    ///
    /// With `d_j = p_j − c`, `r_j = ‖d_j‖`, `g_j = ∂L/∂p'_j` and `m_j` the detection mask:
    /// `∂L/∂s = −Σ_j m_j g_j·d_j / s²`, `G_j = m_j g_j / s + ∂L/∂s · m_j d_j / (n_D r_j)` (the scale
    /// term only when `s` was not clamped and `r_j > 0`), and `∂L/∂p_k = G_k − (Σ_j G_j) ∂c/∂p_k`
    /// with `∂c/∂p_k = [k = centre joint]` or `m_k / n_D`.
    ///
    /// - Parameter gradOutput: ∂loss/∂output, `[N, C·J, T]`.
    /// - Returns: ∂loss/∂input, `[N, C·J, T]`; other channels' gradients pass through.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let input = cache.input
        precondition(gradOutput.shape == input.shape, "KeypointNormalization.backward: gradient shape \(gradOutput.shape)")
        let (channels, joints) = (configuration.channelCount, configuration.jointCount)
        let (batch, length) = (input.shape[0], input.shape[2])
        let (xc, yc, cc) = (configuration.xChannel, configuration.yChannel, configuration.confidenceChannel)
        var gradInput = gradOutput
        var gradD = [Float](repeating: 0, count: 2 * joints)
        input.withUnsafeBufferPointer { p in
            gradOutput.withUnsafeBufferPointer { g in
                gradInput.withUnsafeMutableBufferPointer { dx in
                    for n in 0..<batch {
                        for t in 0..<length {
                            let frame = n * length + t
                            func index(_ c: Int, _ j: Int) -> Int { ((n * channels + c) * joints + j) * length + t }
                            let centre = (cache.centres[2 * frame], cache.centres[2 * frame + 1])
                            let scale = cache.scales[frame]
                            var count: Float = 0
                            var gradScale: Float = 0
                            for j in 0..<joints where p[index(cc, j)] > 0 {
                                count += 1
                                let (ddx, ddy) = (p[index(xc, j)] - centre.0, p[index(yc, j)] - centre.1)
                                gradScale -= (g[index(xc, j)] * ddx + g[index(yc, j)] * ddy) / (scale * scale)
                            }
                            let scaleIsLearned = cache.scaleIsMeanRadius[frame]
                            var total: (Float, Float) = (0, 0)
                            for j in 0..<joints {
                                guard p[index(cc, j)] > 0 else {
                                    gradD[2 * j] = 0
                                    gradD[2 * j + 1] = 0
                                    continue
                                }
                                let (ddx, ddy) = (p[index(xc, j)] - centre.0, p[index(yc, j)] - centre.1)
                                var (gx, gy) = (g[index(xc, j)] / scale, g[index(yc, j)] / scale)
                                let radius = (ddx * ddx + ddy * ddy).squareRoot()
                                if scaleIsLearned && radius > 0 {
                                    gx += gradScale * ddx / (count * radius)
                                    gy += gradScale * ddy / (count * radius)
                                }
                                gradD[2 * j] = gx
                                gradD[2 * j + 1] = gy
                                total.0 += gx
                                total.1 += gy
                            }
                            for j in 0..<joints {
                                var (gx, gy) = (gradD[2 * j], gradD[2 * j + 1])
                                if cache.usedCentreJoint[frame] {
                                    if j == configuration.centreJoint { gx -= total.0; gy -= total.1 }
                                } else if p[index(cc, j)] > 0 {
                                    gx -= total.0 / count
                                    gy -= total.1 / count
                                }
                                dx[index(xc, j)] = gx
                                dx[index(yc, j)] = gy
                            }
                        }
                    }
                }
            }
        }
        return gradInput
    }
}
