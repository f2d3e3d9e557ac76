import NeuralNetwork

/// Gathers windows into the model's input layout.
///
/// A `WindowSet` stores windows as `[N, T, C, J]`; every model takes `[B, C * J, T]`
/// (each frame's keypoints flattened into channels, feature `c * J + j`, time last, as a 1-D
/// convolution expects). Graph models (ST-GCN) rearrange that to `[B, C, T, J]` themselves.
enum BatchAssembler {
    /// The windows at `indices` as a `[B, C * J, T]` tensor, `B = indices.count`.
    /// - Parameter augment: Called with each window's index and a copy of its `[T, C, J]`
    ///   values before they are laid out; the windows themselves never change.
    static func inputs(
        _ windows: WindowSet, indices: ArraySlice<Int>, augment: ((Int, inout [Float]) -> Void)? = nil
    ) -> Tensor {
        let frames = windows.windowSize
        let features = windows.channelCount * windows.jointCount
        let perWindow = windows.valuesPerWindow
        var batch = Tensor(zeros: [indices.count, features, frames])
        batch.withUnsafeMutableBufferPointer { output in
            var scratch = [Float](repeating: 0, count: perWindow)
            for (row, window) in indices.enumerated() {
                let source = window * perWindow
                let destination = row * perWindow
                if let augment {
                    scratch.replaceSubrange(0..<perWindow, with: windows.values[source..<(source + perWindow)])
                    augment(window, &scratch)
                    transpose(scratch[...], into: output, at: destination, frames: frames, features: features)
                } else {
                    transpose(windows.values[source..<(source + perWindow)], into: output, at: destination, frames: frames, features: features)
                }
            }
        }
        return batch
    }

    /// Writes one `[T, F]` window as `[F, T]` into `output` at `offset`.
    private static func transpose(
        _ window: ArraySlice<Float>, into output: UnsafeMutableBufferPointer<Float>, at offset: Int, frames: Int, features: Int
    ) {
        window.withUnsafeBufferPointer { input in
            for frame in 0..<frames {
                for feature in 0..<features {
                    output[offset + feature * frames + frame] = input[frame * features + feature]
                }
            }
        }
    }

    /// Label indices of the windows at `indices`.
    static func labels(_ windows: WindowSet, indices: ArraySlice<Int>) -> [Int] {
        indices.map { windows.labelIndices[$0] }
    }
}
