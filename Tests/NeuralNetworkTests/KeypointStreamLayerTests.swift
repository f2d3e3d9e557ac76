import ActionLabTestSupport
import Foundation
import NeuralNetwork
import NeuralNetworkTestSupport
import Testing

/// ``KeypointStreamLayer`` against PYSKL's `JointToBone` and `ToMotion`, re-computed with NumPy
/// from their definitions (`pyskl/datasets/pipelines/pose_related.py`), and against central
/// differences. The skeleton: 5 joints in a chain and a branch (0–1–2, 1–3–4), root 1.
@Suite struct KeypointStreamLayerTests {
    static let edges = [(0, 1), (1, 2), (1, 3), (3, 4)]
    static let parents = KeypointStreamLayer.Configuration.parents(jointCount: 5, edges: edges, roots: [1])
    static let (batch, frames) = (2, 6)

    static func layer(_ stream: KeypointStream, channels: Int, confidence: Int?) -> KeypointStreamLayer {
        KeypointStreamLayer(configuration: .init(stream: stream, channelCount: channels, parents: parents, confidenceChannel: confidence))
    }

    @Test func parentsPointTowardTheRoot() {
        #expect(Self.parents == [1, 1, 1, 1, 3])
        // Without a preferred root the lowest joint of each part is one; a joint without bones is its own.
        #expect(KeypointStreamLayer.Configuration.parents(jointCount: 4, edges: [(2, 1), (1, 0)]) == [0, 0, 1, 3])
        // Pairs naming no joint and self-loops are ignored, never a trap.
        #expect(KeypointStreamLayer.Configuration.parents(jointCount: 2, edges: [(0, 7), (1, 1), (-1, 0)], roots: [9]) == [0, 1])
    }

    /// Every stream, with a confidence channel (2-D pose, channels x, y, score) and without (3-D),
    /// equals the NumPy transcription of PYSKL's transforms within float32 rounding.
    @Test(arguments: [KeypointStream.bone, .jointMotion, .boneMotion], [true, false])
    func streamsMatchPYSKL(_ stream: KeypointStream, useScore: Bool) throws {
        let channels = 3
        let input = randomTensor([Self.batch, channels * 5, Self.frames], seed: 4)
        let output = Self.layer(stream, channels: channels, confidence: useScore ? 2 : nil).forward(input, training: false)
        guard try PythonOracle.requireModules(["numpy"]) else { return }
        // PYSKL's arrays are [M, T, V, C]; ours [N, C·V, T]: transpose in and out.
        let result = try #require(try PythonOracle.json(
            """
            import json, sys
            import numpy as np
            values, parents, stream, score = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
            n, c, v, t = 2, 3, 5, 6
            x = np.array(values, dtype=np.float64).reshape(n, c, v, t).transpose(0, 3, 2, 1)   # [N, T, V, C]
            def joint_to_bone(keypoint):                      # JointToBone.__call__
                bone = np.zeros_like(keypoint)
                for v1, v2 in enumerate(parents):
                    bone[..., v1, :] = keypoint[..., v1, :] - keypoint[..., v2, :]
                    if score:
                        bone[..., v1, 2] = (keypoint[..., v1, 2] + keypoint[..., v2, 2]) / 2
                return bone
            def to_motion(data):                              # ToMotion.__call__
                motion = np.zeros_like(data)
                motion[:, :t - 1] = np.diff(data, axis=1)
                if score:
                    motion[:, :t - 1, :, 2] = (data[:, :t - 1, :, 2] + data[:, 1:, :, 2]) / 2
                return motion
            y = x
            if stream in ("bone", "boneMotion"): y = joint_to_bone(y)
            if stream in ("jointMotion", "boneMotion"): y = to_motion(y)
            print(json.dumps(y.transpose(0, 3, 2, 1).reshape(-1).tolist()))
            """,
            arguments: [
                "[" + input.values.map { "\($0)" }.joined(separator: ",") + "]",
                "[" + Self.parents.map(String.init).joined(separator: ",") + "]", stream.rawValue, useScore ? "1" : "0",
            ]) as? [Double])
        #expect(result.count == output.count)
        let difference = zip(result, output.values).map { abs($0 - Double($1)) }.max() ?? .infinity
        #expect(difference < 1e-6, "\(stream) differs from PYSKL's by \(difference)")
    }

    /// A root's bone is zero and keeps its score; the last frame of a motion stream is zero; a
    /// one-frame window has no motion.
    @Test func rootsAndTheLastFrame() {
        let input = randomTensor([1, 15, Self.frames], seed: 5)
        let bones = Self.layer(.bone, channels: 3, confidence: 2).forward(input, training: false)
        for t in 0..<Self.frames {
            #expect(bones.values[(0 * 5 + 1) * Self.frames + t] == 0)
            #expect(bones.values[(1 * 5 + 1) * Self.frames + t] == 0)
            #expect(bones.values[(2 * 5 + 1) * Self.frames + t] == input.values[(2 * 5 + 1) * Self.frames + t])
        }
        let motion = Self.layer(.jointMotion, channels: 3, confidence: 2).forward(input, training: false)
        for feature in 0..<15 { #expect(motion.values[feature * Self.frames + Self.frames - 1] == 0) }
        let single = Self.layer(.boneMotion, channels: 3, confidence: nil).forward(randomTensor([2, 15, 1], seed: 6), training: false)
        #expect(single.values.allSatisfy { $0 == 0 })
    }

    /// The backward pass is the transposed combination, at every input value.
    @Test(arguments: [KeypointStream.bone, .jointMotion, .boneMotion])
    func gradientsMatchFiniteDifferences(_ stream: KeypointStream) {
        checkGradients(
            of: Self.layer(stream, channels: 3, confidence: 2), input: randomTensor([Self.batch, 15, Self.frames], seed: 7),
            epsilon: 1e-2, relative: 1e-3, absolute: 1e-4)
    }

    @Test func badConfigurationsAreNamed() {
        let noBones = KeypointStreamLayer.Configuration(stream: .bone, channelCount: 3, parents: [0, 1, 2], confidenceChannel: nil)
        #expect(noBones.problems.contains { $0.contains("needs bones") })
        let motionWithoutBones = KeypointStreamLayer.Configuration(stream: .jointMotion, channelCount: 3, parents: [0, 1, 2], confidenceChannel: nil)
        #expect(motionWithoutBones.problems.isEmpty)
        let badParent = KeypointStreamLayer.Configuration(stream: .bone, channelCount: 3, parents: [0, 5], confidenceChannel: 3)
        #expect(badParent.problems.count == 2)
        #expect(motionWithoutBones.problems(forInputChannels: 10).contains { $0.contains("not inputChannels 10") })
    }
}
