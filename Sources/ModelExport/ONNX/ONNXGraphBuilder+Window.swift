import NeuralNetwork

extension ONNXGraphBuilder {
    /// Appends the rearrangement of one window `[T, C, J]` into the trainer's batch layout
    /// `[1, C·J, T]` (feature `c·J + j`): `Reshape` to `[1, T, C·J]` (row-major) and `Transpose`
    /// with `perm = [0, 2, 1]`.
    ///
    /// - Returns: The value name of `[1, C·J, T]`.
    package mutating func appendChannelsFirstWindow(poses: String, window: KeypointWindowShape) throws -> String {
        let features = Int64(window.channelCount * window.jointCount)
        let shape = try addInitializer("frames.shape", int64s: [1, Int64(window.windowSize), features])
        let frames = addNode("Reshape", inputs: [poses, shape], output: "frames")
        return addNode("Transpose", inputs: [frames], output: "channelsFirst", attributes: [.init("perm", .ints([0, 2, 1]))])
    }

    /// Adds `tensor` as an initializer under its state-dictionary name and shape, and a `Reshape`
    /// node giving it the shape an operator needs (such as a `Conv` weight `[out, in, k, 1]`),
    /// so that initializers stay identical to `weights.h5`.
    ///
    /// - Returns: The value name of the reshaped tensor.
    package mutating func addReshaped(_ name: String, tensor: Tensor, to shape: [Int]) throws -> String {
        let value = try addInitializer(name, tensor: tensor)
        let target = try addInitializer(name + ".shape", int64s: shape.map(Int64.init))
        return addNode("Reshape", inputs: [value, target], output: name + ".reshaped")
    }
}
