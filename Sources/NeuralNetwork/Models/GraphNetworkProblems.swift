/// The configuration checks the graph networks (``SpatialTemporalGraphConvolutionalNetwork``,
/// ``STGCNPlusPlusNetwork``, ``CTRGCNNetwork``) share, each problem one sentence for ``InvalidModelConfiguration``.
enum GraphNetworkProblems {
    /// Problems of the sizes: channels per joint, classes and the channel plan.
    ///
    /// - Parameters:
    ///   - channelCount: Channels per joint, `C`; must be positive.
    ///   - classCount: The number of classes; at least 2.
    ///   - blocks: The channel plan; at least one block, positive channels and strides.
    static func sizes(channelCount: Int, classCount: Int, blocks: [SpatialTemporalGraphConvolutionalNetwork.Block]) -> [String] {
        var problems: [String] = []
        if channelCount < 1 { problems.append("channelCount must be positive, got \(channelCount)") }
        if classCount < 2 { problems.append("classCount must be at least 2, got \(classCount)") }
        if blocks.isEmpty { problems.append("blocks must name at least one block") }
        if blocks.contains(where: { $0.channels < 1 || $0.stride < 1 }) {
            problems.append("block channels and strides must be positive")
        }
        return problems
    }

    /// Problems of the dropout rate (in `[0, 1)`) and of the input layers: the in-model keypoint
    /// normalization and the stream, which must be valid and made for the network's channels and
    /// the graph's joints (``InputNormalization/problems(_:stream:channelCount:jointCount:)``).
    static func dropoutAndInputLayers(
        dropout: Float, keypointNormalization: InputNormalization?, stream: KeypointStreamLayer.Configuration?, channelCount: Int,
        graph: SpatialGraph
    ) -> [String] {
        var problems: [String] = []
        if !(dropout >= 0 && dropout < 1) { problems.append("dropout must be in [0, 1), got \(dropout)") }
        return problems + InputNormalization.problems(
            keypointNormalization, stream: stream, channelCount: channelCount, jointCount: graph.jointCount)
    }
}
