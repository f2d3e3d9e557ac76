import NeuralNetwork

/// Gathers windows into the model's input layout.
///
/// A `WindowSet` stores windows as `[N, T, C, J]`; every model takes `[B, C * J, T]`
/// (each frame's keypoints flattened into channels, feature `c * J + j`, time last, as a 1-D
/// convolution expects). Graph models (ST-GCN) rearrange that to `[B, C, T, J]` themselves.
enum BatchAssembler {
    /// The windows at `indices` as a `[B, C * J, T]` tensor, `B = indices.count`.
    static func inputs(_ windows: WindowSet, indices: ArraySlice<Int>) -> Tensor {
        let frames = windows.windowSize
        let features = windows.channelCount * windows.jointCount
        let perWindow = windows.valuesPerWindow
        var batch = Tensor(zeros: [indices.count, features, frames])
        batch.withUnsafeMutableBufferPointer { output in
            windows.values.withUnsafeBufferPointer { input in
                for (row, window) in indices.enumerated() {
                    let source = window * perWindow
                    let destination = row * perWindow
                    for frame in 0..<frames {
                        for feature in 0..<features {
                            output[destination + feature * frames + frame] = input[source + frame * features + feature]
                        }
                    }
                }
            }
        }
        return batch
    }

    /// Label indices of the windows at `indices`.
    static func labels(_ windows: WindowSet, indices: ArraySlice<Int>) -> [Int] {
        indices.map { windows.labelIndices[$0] }
    }
}
