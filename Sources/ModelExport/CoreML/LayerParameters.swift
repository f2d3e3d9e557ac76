import Protobuf

extension CoreML {
    /// The `oneof layer` cases of `NeuralNetworkLayer` that ActionLab writes, each with the
    /// field number of its case and of its parameters in `NeuralNetwork.proto`.
    ///
    /// Shapes below are those of the exact-rank mapping; every layer but ``innerProduct``,
    /// ``flattenTo2D``, ``reshapeStatic``, ``softmaxND`` and the broadcasting ones reads a rank-4
    /// blob `[batch, channels, height, width]`.
    public enum LayerParameters: Sendable {
        /// Case 100, `ConvolutionLayerParams`: `outputChannels` (1), `kernelChannels` (2),
        /// `nGroups` (10) = 1, `kernelSize` (20) `[H, W]`, `stride` (30), `dilationFactor` (40),
        /// `valid` (50) padding with `BorderAmounts` `[(top, bottom), (left, right)]`, `hasBias`
        /// (70), `weights` (90) `[outputChannels, kernelChannels, kH, kW]`, `bias` (91).
        case convolution(
            outputChannels: Int, kernelChannels: Int, kernelSize: [Int], stride: [Int], dilation: [Int],
            padding: [(start: Int, end: Int)], weights: [Float], bias: [Float]?)
        /// Case 120, `PoolingLayerParams` with `type` (1) `AVERAGE` = 1, `valid` (30) padding and
        /// `globalPooling` (60): `[B, C, H, W] → [B, C, 1, 1]`, the mean over H and W.
        case globalAveragePooling
        /// Case 120, `PoolingLayerParams` with `type` (1) `MAX` = 0, `kernelSize` (10) `[H, W]`,
        /// `stride` (20) and `valid` (30) padding with `BorderAmounts` `[(top, bottom), (left, right)]`:
        /// the maximum over each window, `H_out = ⌊(H + top + bottom − kH) / sH⌋ + 1`.
        case maxPooling(kernelSize: [Int], stride: [Int], padding: [(start: Int, end: Int)])
        /// Case 130, `ActivationParams` with `ReLU` (10): `max(x, 0)`.
        case relu
        /// Case 140, `InnerProductLayerParams`: `inputChannels` (1), `outputChannels` (2),
        /// `hasBias` (10), `weights` (20) `[C_out, C_in]`, `bias` (21); on `[N, C_in]`.
        case innerProduct(inputChannels: Int, outputChannels: Int, weights: [Float], bias: [Float]?)
        /// Case 160, `BatchnormLayerParams`: `channels` (1), `epsilon` (10), `gamma` (15),
        /// `beta` (16), `mean` (17), `variance` (18); `y = γ (x − μ) / √(σ² + ε) + β` per channel.
        case batchNormalization(channels: Int, epsilon: Float, gamma: [Float], beta: [Float], mean: [Float], variance: [Float])
        /// Case 880, `AddBroadcastableLayerParams` (no fields): elementwise sum, NumPy broadcasting.
        case addBroadcastable
        /// Case 900, `MultiplyBroadcastableLayerParams` (no fields): elementwise product.
        case multiplyBroadcastable
        /// Case 950, `SoftmaxNDLayerParams`: `axis` (1).
        case softmaxND(axis: Int)
        /// Case 975, `SplitNDLayerParams`: `axis` (1), `numSplits` (2); equal parts, one output each.
        case splitND(axis: Int, parts: Int)
        /// Case 980, `ConcatNDLayerParams`: `axis` (1).
        case concatND(axis: Int)
        /// Case 985, `TransposeLayerParams`: `axes` (1), a permutation.
        case transpose(axes: [Int])
        /// Case 1045, `BatchedMatMulLayerParams` with two inputs and no fields set: NumPy `matmul`.
        case batchedMatMul
        /// Case 1070, `LoadConstantNDLayerParams`: `shape` (1), `data` (2).
        case loadConstantND(shape: [Int], values: [Float])
        /// Case 1130, `FlattenTo2DLayerParams`: `axis` (1); `[d₀, …] → [d₀·…·d_{axis−1}, d_axis·…]`.
        case flattenTo2D(axis: Int)
        /// Case 1140, `ReshapeStaticLayerParams`: `targetShape` (1), row-major.
        case reshapeStatic(targetShape: [Int])
        /// Case 1270, `ReduceSumLayerParams`: `axes` (1), `keepDims` (2).
        case reduceSum(axes: [Int], keepDims: Bool)

        /// Writes the `oneof layer` field.
        func encode(to encoder: inout ProtobufEncoder) {
            switch self {
            case let .convolution(outputs, kernelChannels, kernel, stride, dilation, padding, weights, bias):
                encoder.writeMessage(field: 100, Fields { e in
                    e.writeInt64(field: 1, Int64(outputs))
                    e.writeInt64(field: 2, Int64(kernelChannels))
                    e.writeInt64(field: 10, 1)
                    e.writePackedInt64(field: 20, kernel.map(Int64.init))
                    e.writePackedInt64(field: 30, stride.map(Int64.init))
                    e.writePackedInt64(field: 40, dilation.map(Int64.init))
                    // ValidPadding.paddingAmounts (1) = BorderAmounts.borderAmounts (10) of EdgeSizes
                    // (startEdgeSize 1, endEdgeSize 2).
                    e.writeMessage(field: 50, Fields { valid in
                        valid.writeMessage(field: 1, Self.borderAmounts(padding))
                    })
                    if bias != nil { e.writeInt64(field: 70, 1) }
                    e.writeMessage(field: 90, WeightParams(weights))
                    if let bias { e.writeMessage(field: 91, WeightParams(bias)) }
                })
            case .globalAveragePooling:
                encoder.writeMessage(field: 120, Fields { e in
                    e.writeInt64(field: 1, 1)
                    e.writeMessage(field: 30, EmptyMessage())
                    e.writeInt64(field: 60, 1)
                })
            case let .maxPooling(kernel, stride, padding):
                encoder.writeMessage(field: 120, Fields { e in
                    e.writeInt64(field: 1, 0)
                    e.writePackedInt64(field: 10, kernel.map(Int64.init))
                    e.writePackedInt64(field: 20, stride.map(Int64.init))
                    e.writeMessage(field: 30, Fields { valid in
                        valid.writeMessage(field: 1, Self.borderAmounts(padding))
                    })
                })
            case .relu:
                encoder.writeMessage(field: 130, Fields { $0.writeMessage(field: 10, EmptyMessage()) })
            case let .innerProduct(inputs, outputs, weights, bias):
                encoder.writeMessage(field: 140, Fields { e in
                    e.writeInt64(field: 1, Int64(inputs))
                    e.writeInt64(field: 2, Int64(outputs))
                    if bias != nil { e.writeInt64(field: 10, 1) }
                    e.writeMessage(field: 20, WeightParams(weights))
                    if let bias { e.writeMessage(field: 21, WeightParams(bias)) }
                })
            case let .batchNormalization(channels, epsilon, gamma, beta, mean, variance):
                encoder.writeMessage(field: 160, Fields { e in
                    e.writeInt64(field: 1, Int64(channels))
                    e.writeFloat(field: 10, epsilon)
                    e.writeMessage(field: 15, WeightParams(gamma))
                    e.writeMessage(field: 16, WeightParams(beta))
                    e.writeMessage(field: 17, WeightParams(mean))
                    e.writeMessage(field: 18, WeightParams(variance))
                })
            case .addBroadcastable:
                encoder.writeMessage(field: 880, EmptyMessage())
            case .multiplyBroadcastable:
                encoder.writeMessage(field: 900, EmptyMessage())
            case .softmaxND(let axis):
                encoder.writeMessage(field: 950, Fields { $0.writeInt64(field: 1, Int64(axis)) })
            case let .splitND(axis, parts):
                encoder.writeMessage(field: 975, Fields { e in
                    e.writeInt64(field: 1, Int64(axis))
                    e.writeInt64(field: 2, Int64(parts))
                })
            case .concatND(let axis):
                encoder.writeMessage(field: 980, Fields { $0.writeInt64(field: 1, Int64(axis)) })
            case .transpose(let axes):
                encoder.writeMessage(field: 985, Fields { $0.writePackedInt64(field: 1, axes.map(Int64.init)) })
            case .batchedMatMul:
                encoder.writeMessage(field: 1045, EmptyMessage())
            case let .loadConstantND(shape, values):
                encoder.writeMessage(field: 1070, Fields { e in
                    e.writePackedInt64(field: 1, shape.map(Int64.init))
                    e.writeMessage(field: 2, WeightParams(values))
                })
            case .flattenTo2D(let axis):
                encoder.writeMessage(field: 1130, Fields { $0.writeInt64(field: 1, Int64(axis)) })
            case .reshapeStatic(let shape):
                encoder.writeMessage(field: 1140, Fields { $0.writePackedInt64(field: 1, shape.map(Int64.init)) })
            case let .reduceSum(axes, keepDims):
                encoder.writeMessage(field: 1270, Fields { e in
                    e.writePackedInt64(field: 1, axes.map(Int64.init))
                    if keepDims { e.writeInt64(field: 2, 1) }
                })
            }
        }

        /// `BorderAmounts` with `borderAmounts` (10) of `EdgeSizes` (`startEdgeSize` 1, `endEdgeSize` 2),
        /// the `paddingAmounts` (1) of a `ValidPadding`.
        private static func borderAmounts(_ padding: [(start: Int, end: Int)]) -> Fields {
            Fields { amounts in
                for edge in padding {
                    amounts.writeMessage(field: 10, Fields { sizes in
                        sizes.writeInt64(field: 1, Int64(edge.start))
                        sizes.writeInt64(field: 2, Int64(edge.end))
                    })
                }
            }
        }

        /// A parameters message written by a closure, in ascending field order.
        private struct Fields: ProtobufMessage {
            var write: (inout ProtobufEncoder) -> Void
            init(_ write: @escaping (inout ProtobufEncoder) -> Void) { self.write = write }
            func encode(to encoder: inout ProtobufEncoder) { write(&encoder) }
        }
    }
}
