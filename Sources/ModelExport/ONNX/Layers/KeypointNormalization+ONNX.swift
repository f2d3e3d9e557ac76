import NeuralNetwork

extension KeypointNormalization: ONNXLayerExportable {
    /// Appends the centring and scaling of ``KeypointNormalization`` on `[1, C·J, T]` with
    /// elementwise operators (ONNX `docs/Operators.md`, operator set 17):
    ///
    /// ```
    /// P = Reshape [1, C, J, T];  xy = Gather(P, [x, y], axis 1);  m = Cast(Greater(Gather(P, [confidence]), 0))
    /// n = Max(ReduceSum(m, axis 2), 1);  mean = ReduceSum(xy · m, axis 2) / n
    /// c = m_neck · xy_neck + (1 − m_neck) · mean          (just mean without a centre joint)
    /// d = xy − c;  s = ReduceSum(√ReduceSum(d², axis 1) · m, axis 2) / n;  s ← Where(s > 1e-6, s, 1)
    /// xy' = d / s · m;  output = Concat of the channels in their order (x, y from xy', the rest
    /// from P), Reshape [1, C·J, T]
    /// ```
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        let c = configuration
        func ints(_ name: String, _ values: [Int]) throws -> String {
            try graph.addInitializer("\(path).\(name)", int64s: values.map(Int64.init))
        }
        func scalar(_ name: String, _ value: Float) throws -> String {
            try graph.addInitializer("\(path).\(name)", tensor: Tensor(shape: [1], values: [value]))
        }
        func node(_ op: String, _ inputs: [String], _ name: String, _ attributes: [ONNX.AttributeProto] = []) -> String {
            graph.addNode(op, inputs: inputs, output: "\(path).\(name)", attributes: attributes)
        }
        let points = node("Reshape", [input, try ints("pointsShape", [1, c.channelCount, c.jointCount, -1])], "points")
        let xy = node("Gather", [points, try ints("xyChannels", [c.xChannel, c.yChannel])], "xy", [.init("axis", .int(1))])
        let confidence = node("Gather", [points, try ints("confidenceChannel", [c.confidenceChannel])], "confidence", [.init("axis", .int(1))])
        let zero = try scalar("zero", 0)
        let one = try scalar("one", 1)
        let mask = node("Cast", [node("Greater", [confidence, zero], "detected")], "mask", [.init("to", .int(1))])
        let jointAxis = try ints("jointAxis", [2])
        let channelAxis = try ints("channelAxis", [1])
        let count = node("Max", [node("ReduceSum", [mask, jointAxis], "detectedCount"), one], "divisor")
        let mean = node("Div", [node("ReduceSum", [node("Mul", [xy, mask], "detectedXY"), jointAxis], "sumXY"), count], "meanXY")
        var centre = mean
        if let joint = c.centreJoint {
            let index = try ints("centreJoint", [joint])
            let jointXY = node("Gather", [xy, index], "centreJointXY", [.init("axis", .int(2))])
            let jointMask = node("Gather", [mask, index], "centreJointMask", [.init("axis", .int(2))])
            let fromJoint = node("Mul", [jointMask, jointXY], "centreFromJoint")
            let fromMean = node("Mul", [node("Sub", [one, jointMask], "centreJointMissing"), mean], "centreFromMean")
            centre = node("Add", [fromJoint, fromMean], "centre")
        }
        let offsets = node("Sub", [xy, centre], "offsets")
        let radii = node("Sqrt", [node("ReduceSum", [node("Mul", [offsets, offsets], "squares"), channelAxis], "squaredRadii")], "radii")
        let meanRadius = node("Div", [node("ReduceSum", [node("Mul", [radii, mask], "detectedRadii"), jointAxis], "sumRadii"), count], "meanRadius")
        let isScale = node("Greater", [meanRadius, try scalar("minimumScale", KeypointNormalization.minimumScale)], "scaleIsMeanRadius")
        let scale = node("Where", [isScale, meanRadius, one], "scale")
        let normalized = node("Mul", [node("Div", [offsets, scale], "scaled"), mask], "normalizedXY")
        var channels: [String] = []
        for channel in 0..<c.channelCount {
            switch channel {
            case c.xChannel: channels.append(node("Gather", [normalized, try ints("pickX", [0])], "x", [.init("axis", .int(1))]))
            case c.yChannel: channels.append(node("Gather", [normalized, try ints("pickY", [1])], "y", [.init("axis", .int(1))]))
            default:
                channels.append(node("Gather", [points, try ints("channel\(channel)", [channel])], "channel\(channel)", [.init("axis", .int(1))]))
            }
        }
        let joined = node("Concat", channels, "channels", [.init("axis", .int(1))])
        return graph.addNode(
            "Reshape", inputs: [joined, try ints("outputShape", [1, c.channelCount * c.jointCount, -1])], output: path)
    }
}
