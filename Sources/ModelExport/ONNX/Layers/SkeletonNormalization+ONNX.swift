import NeuralNetwork

extension SkeletonNormalization: ONNXLayerExportable {
    /// Appends the centring and scaling of ``SkeletonNormalization`` on `[1, C·J, T]` with
    /// elementwise operators (ONNX `docs/Operators.md`, operator set 17):
    ///
    /// ```
    /// P = Reshape [1, C, J, T];  p = Gather(P, coordinates, axis 1)
    /// m = Cast(Greater(ReduceSum(Abs(p), axis 1), 0))                     detected joints [1, 1, J, T]
    /// mc = Gather(m, [centre], axis 2);  first = mc · Cast(Equal(CumSum(mc, axis 3), 1))   one-hot of the first detected frame
    /// c = ReduceSum(Gather(p, [centre], axis 2) · first, axis 3)
    /// both = m_top · m_base;  r = √ReduceSum((p_top − p_base)², axis 1)
    /// s = ReduceSum(r · both, axis 3) / Max(ReduceSum(both, axis 3), 1);  s ← Where(s > 1e-6, s, 1)
    /// p' = (p − c) / s · m;  output = Concat of the channels in their order, Reshape [1, C·J, T]
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
        func gather(_ data: String, _ indices: String, axis: Int64, _ name: String) -> String {
            node("Gather", [data, indices], name, [.init("axis", .int(axis))])
        }
        let points = node("Reshape", [input, try ints("pointsShape", [1, c.channelCount, c.jointCount, -1])], "points")
        let coordinates = gather(points, try ints("coordinateChannels", c.coordinateChannels), axis: 1, "coordinates")
        let zero = try scalar("zero", 0)
        let one = try scalar("one", 1)
        let channelAxis = try ints("channelAxis", [1])
        let timeAxis = try ints("timeAxis", [3])
        let magnitude = node("ReduceSum", [node("Abs", [coordinates], "absolute"), channelAxis], "magnitude")
        let mask = node("Cast", [node("Greater", [magnitude, zero], "detected")], "mask", [.init("to", .int(1))])

        let centreIndex = try ints("centreJoint", [c.centreJoint])
        let centreMask = gather(mask, centreIndex, axis: 2, "centreMask")
        let seen = node("CumSum", [centreMask, try graph.addInitializer("\(path).cumulativeAxis", int64Scalar: 3)], "centreSeen")
        let isFirst = node("Cast", [node("Equal", [seen, one], "centreSeenOnce")], "centreSeenOnceMask", [.init("to", .int(1))])
        let first = node("Mul", [centreMask, isFirst], "referenceFrame")
        let centreTrack = gather(coordinates, centreIndex, axis: 2, "centreTrack")
        let centre = node("ReduceSum", [node("Mul", [centreTrack, first], "centreAtReference"), timeAxis], "centre")

        let top = gather(coordinates, try ints("spineTop", [c.spineTop]), axis: 2, "spineTopTrack")
        let base = gather(coordinates, try ints("spineBase", [c.spineBase]), axis: 2, "spineBaseTrack")
        let both = node(
            "Mul", [gather(mask, try ints("spineTopIndex", [c.spineTop]), axis: 2, "spineTopMask"),
                    gather(mask, try ints("spineBaseIndex", [c.spineBase]), axis: 2, "spineBaseMask")], "spineMask")
        let difference = node("Sub", [top, base], "spine")
        let lengths = node("Sqrt", [node("ReduceSum", [node("Mul", [difference, difference], "spineSquares"), channelAxis], "spineSquared")], "spineLengths")
        let total = node("ReduceSum", [node("Mul", [lengths, both], "detectedSpineLengths"), timeAxis], "spineLengthSum")
        let count = node("Max", [node("ReduceSum", [both, timeAxis], "spineFrames"), one], "spineDivisor")
        let mean = node("Div", [total, count], "meanSpineLength")
        let isScale = node("Greater", [mean, try scalar("minimumScale", SkeletonNormalization.minimumScale)], "scaleIsSpineLength")
        let scale = node("Where", [isScale, mean, one], "scale")
        let normalized = node("Mul", [node("Div", [node("Sub", [coordinates, centre], "offsets"), scale], "scaled"), mask], "normalized")

        var channels: [String] = []
        for channel in 0..<c.channelCount {
            if let k = c.coordinateChannels.firstIndex(of: channel) {
                channels.append(gather(normalized, try ints("pick\(channel)", [k]), axis: 1, "coordinate\(channel)"))
            } else {
                channels.append(gather(points, try ints("channel\(channel)", [channel]), axis: 1, "channel\(channel)"))
            }
        }
        let joined = node("Concat", channels, "channels", [.init("axis", .int(1))])
        return graph.addNode(
            "Reshape", inputs: [joined, try ints("outputShape", [1, c.channelCount * c.jointCount, -1])], output: path)
    }
}
