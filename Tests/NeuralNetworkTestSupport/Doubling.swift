import NeuralNetwork

/// `y = 2x`: a layer no exporter knows, for tests of what happens to a layer without a
/// translation (ONNX export must name it by its path, never skip it).
public final class Doubling: Layer {
    public init() {}
    public func forward(_ x: Tensor, training: Bool) -> Tensor { x.map { 2 * $0 } }
    public func backward(_ gradOutput: Tensor) -> Tensor { gradOutput.map { 2 * $0 } }
}
