import NeuralNetwork
import NeuralNetworkTestSupport
import Testing

/// ``SkeletonNormalization`` on 3-D windows of 4 joints (0 hip, 1 shoulders, 2 and 3 limbs),
/// channels x, y, z and one channel that passes through.
@Suite struct SkeletonNormalizationTests {
    static let configuration = SkeletonNormalization.Configuration(
        channelCount: 4, jointCount: 4, coordinateChannels: [0, 1, 2], centreJoint: 0, spineBase: 0, spineTop: 1)
    static let (batch, joints, channels, frames) = (2, 4, 4, 5)

    static func index(_ n: Int, _ c: Int, _ j: Int, _ t: Int) -> Int { ((n * channels + c) * joints + j) * frames + t }

    /// Random positions in metres away from 0, with the hip undetected in window 1's first
    /// frame and window 1's last frame padded (all zero).
    static func window(seed: UInt64) -> Tensor {
        var x = randomTensor([batch, channels * joints, frames], seed: seed).map { 1.5 + 0.4 * $0 }
        for c in 0..<3 { x.values[index(1, c, 0, 0)] = 0 }
        for c in 0..<channels { for j in 0..<joints { x.values[index(1, c, j, frames - 1)] = 0 } }
        return x
    }

    /// The hip of the first frame where it is detected is the origin; the mean spine length over
    /// frames with both spine joints is 1; undetected joints stay 0; channel 3 passes through.
    @Test func windowIsCentredOnTheFirstHipAndScaledBySpineLength() {
        let input = Self.window(seed: 1)
        let output = SkeletonNormalization(configuration: Self.configuration).forward(input, training: false)
        for n in 0..<Self.batch {
            let reference = n == 0 ? 0 : 1
            for c in 0..<3 { #expect(abs(output.values[Self.index(n, c, 0, reference)]) < 1e-6) }
            var lengths: [Float] = []
            for t in 0..<Self.frames where !(n == 1 && (t == 0 || t == Self.frames - 1)) {
                let squares = (0..<3).map { c in
                    let d = output.values[Self.index(n, c, 1, t)] - output.values[Self.index(n, c, 0, t)]
                    return d * d
                }.reduce(0, +)
                lengths.append(squares.squareRoot())
            }
            #expect(abs(lengths.reduce(0, +) / Float(lengths.count) - 1) < 1e-5)
            for j in 0..<Self.joints { for t in 0..<Self.frames {
                #expect(output.values[Self.index(n, 3, j, t)] == input.values[Self.index(n, 3, j, t)])
            } }
        }
        for c in 0..<3 { #expect(output.values[Self.index(1, c, 0, 0)] == 0) }
        for c in 0..<3 { for j in 0..<Self.joints { #expect(output.values[Self.index(1, c, j, Self.frames - 1)] == 0) } }
        // Moving and scaling the whole skeleton (every detected joint) changes nothing.
        var moved = input
        for n in 0..<Self.batch { for c in 0..<3 { for j in 0..<Self.joints { for t in 0..<Self.frames {
            let i = Self.index(n, c, j, t)
            if moved.values[i] != 0 { moved.values[i] = 1.7 * moved.values[i] + Float(c) - 0.25 }
        } } } }
        let again = SkeletonNormalization(configuration: Self.configuration).forward(moved, training: false)
        let difference = zip(again.values, output.values).map { abs($0 - $1) }.max() ?? 0
        #expect(difference < 1e-4)
    }

    /// Against central differences at every detected value (nudging an undetected joint's 0
    /// detects it, a step the derivative does not see).
    @Test func gradientsMatchFiniteDifferences() {
        let input = Self.window(seed: 2)
        let detected = input.values.indices.filter { input.values[$0] != 0 }
        #expect(detected.count < input.count)
        checkGradients(
            of: SkeletonNormalization(configuration: Self.configuration), input: input, inputIndices: detected, epsilon: 1e-3)
    }

    @Test func badConfigurationsAreNamed() {
        var configuration = Self.configuration
        configuration.spineTop = 0
        #expect(configuration.problems.contains { $0.contains("must differ") })
        configuration.coordinateChannels = [0, 0, 7]
        #expect(configuration.problems.contains { $0.contains("distinct channels") })
        #expect(InputNormalization.skeleton3D(Self.configuration).problems(forInputChannels: 15).contains { $0.contains("not inputChannels 15") })
    }
}
