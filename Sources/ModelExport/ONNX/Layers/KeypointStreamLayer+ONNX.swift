import NeuralNetwork

extension KeypointStreamLayer: ONNXLayerExportable {
    /// Appends the stream of ``KeypointStreamLayer`` on `[1, C·J, T]` (ONNX `docs/Operators.md`,
    /// operator set 17):
    ///
    /// ```
    /// bone    b = MatMul(B, x)         B [C·J, C·J]: row c·J + j holds a_c at c·J + j and b_c at c·J + p(j)
    /// motion  m = Pad(Mul(Slice(y, t 1…), a) + Mul(Slice(y, t …T−1), b), one zero frame at the end)
    /// ```
    ///
    /// with `(a_c, b_c) = (1, −1)` for a coordinate channel and `(½, ½)` for the confidence
    /// channel, `a` and `b` per feature `[1, C·J, 1]`. Both work for any window length.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        let c = configuration
        let features = c.channelCount * c.jointCount
        func weights(_ channel: Int) -> (Float, Float) { channel == c.confidenceChannel ? (0.5, 0.5) : (1, -1) }
        var value = input
        if c.stream.usesBones {
            var matrix = [Float](repeating: 0, count: features * features)
            for channel in 0..<c.channelCount {
                let (a, b) = weights(channel)
                for joint in 0..<c.jointCount {
                    let row = channel * c.jointCount + joint
                    matrix[row * features + row] += a
                    matrix[row * features + channel * c.jointCount + c.parents[joint]] += b
                }
            }
            let bones = try graph.addInitializer("\(path).bones", tensor: Tensor(shape: [features, features], values: matrix))
            value = graph.addNode("MatMul", inputs: [bones, value], output: c.stream.usesMotion ? "\(path).bone" : path)
        }
        if c.stream.usesMotion {
            let perFeature = (0..<features).map { weights($0 / c.jointCount) }
            let next = try graph.addInitializer("\(path).nextWeights", tensor: Tensor(shape: [1, features, 1], values: perFeature.map(\.0)))
            let this = try graph.addInitializer("\(path).thisWeights", tensor: Tensor(shape: [1, features, 1], values: perFeature.map(\.1)))
            let axes = try graph.addInitializer("\(path).timeAxis", int64s: [2])
            let later = graph.addNode(
                "Slice", inputs: [value, try graph.addInitializer("\(path).laterStart", int64s: [1]),
                                  try graph.addInitializer("\(path).laterEnd", int64s: [Int64.max]), axes],
                output: "\(path).later")
            let earlier = graph.addNode(
                "Slice", inputs: [value, try graph.addInitializer("\(path).earlierStart", int64s: [0]),
                                  try graph.addInitializer("\(path).earlierEnd", int64s: [-1]), axes],
                output: "\(path).earlier")
            let combined = graph.addNode(
                "Add", inputs: [graph.addNode("Mul", inputs: [later, next], output: "\(path).laterWeighted"),
                                graph.addNode("Mul", inputs: [earlier, this], output: "\(path).earlierWeighted")],
                output: "\(path).differences")
            value = graph.addNode(
                "Pad", inputs: [combined, try graph.addInitializer("\(path).lastFrame", int64s: [0, 0, 0, 0, 0, 1])],
                output: path, attributes: [.init("mode", .string("constant"))])
        }
        return value
    }
}
