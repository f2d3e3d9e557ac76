import Dataset
import NeuralNetwork

/// Gathers windows into the model's input layout.
///
/// A `WindowSet` gives windows as `[T, C, J]` (from memory or, streamed, from the feature cache);
/// every model takes `[B, C * J, T]`
/// (each frame's keypoints flattened into channels, feature `c * J + j`, time last, as a 1-D
/// convolution expects). Graph models (ST-GCN) rearrange that to `[B, C, T, J]` themselves.
public enum BatchAssembler {
    /// The windows at `indices` as a `[B, C * J, T]` tensor, `B = indices.count`.
    ///
    /// - Parameters:
    ///   - windows: The window set.
    ///   - indices: The windows of the batch, in batch order.
    ///   - augment: Called with each window's index and a copy of its `[T, C, J]` values before
    ///     they are laid out; the windows themselves never change.
    /// - Throws: `FeatureCacheError` if a streamed window cannot be read.
    static func inputs(
        _ windows: WindowSet, indices: ArraySlice<Int>, augment: ((Int, inout [Float]) -> Void)? = nil
    ) throws -> Tensor {
        let frames = windows.windowSize
        let features = windows.channelCount * windows.jointCount
        let perWindow = windows.valuesPerWindow
        var batch = Tensor(zeros: [indices.count, features, frames])
        var scratch = [Float](repeating: 0, count: perWindow)
        try batch.withUnsafeMutableBufferPointer { output in
            for (row, window) in indices.enumerated() {
                try scratch.withUnsafeMutableBufferPointer { try windows.copyWindow(window, into: $0) }
                augment?(window, &scratch)
                transpose(scratch[...], into: output, at: row * perWindow, frames: frames, features: features)
            }
        }
        return batch
    }

    /// Windows held as flattened `[N, T, C, J]` values (window-major, as ``WindowSet`` and a
    /// predictor hold them) as the model's `[N, C * J, T]` input tensor, laid out exactly as
    /// batches in training and evaluation are.
    ///
    /// - Parameters:
    ///   - values: `N * T * C * J` values; `N = values.count / (T * C * J)` (a partial window is ignored).
    ///   - windowSize: `T`. - channelCount: `C`. - jointCount: `J`.
    /// - Returns: `[N, C * J, T]`.
    public static func inputs(windowValues values: [Float], windowSize: Int, channelCount: Int, jointCount: Int) -> Tensor {
        let features = channelCount * jointCount
        let perWindow = windowSize * features
        let count = perWindow > 0 ? values.count / perWindow : 0
        var batch = Tensor(zeros: [count, features, windowSize])
        batch.withUnsafeMutableBufferPointer { output in
            for row in 0..<count {
                transpose(values[(row * perWindow)..<((row + 1) * perWindow)], into: output, at: row * perWindow, frames: windowSize, features: features)
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
