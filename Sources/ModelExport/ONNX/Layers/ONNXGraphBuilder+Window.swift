extension ONNXGraphBuilder {
    /// Appends the rearrangement of one window `[T, C, J]` into the trainer's batch layout
    /// `[1, C·J, T]` (feature `c·J + j`): `Reshape` to `[1, T, C·J]` (row-major) and `Transpose`
    /// with `perm = [0, 2, 1]`.
    ///
    /// - Returns: The value name of `[1, C·J, T]`.
    mutating func appendChannelsFirstWindow(poses: String, window: KeypointWindowShape) throws -> String {
        let features = Int64(window.channelCount * window.jointCount)
        let shape = try addInitializer("frames.shape", int64s: [1, Int64(window.windowSize), features])
        let frames = addNode("Reshape", inputs: [poses, shape], output: "frames")
        return addNode("Transpose", inputs: [frames], output: "channelsFirst", attributes: [.init("perm", .ints([0, 2, 1]))])
    }
}
