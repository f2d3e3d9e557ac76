import ManifestSchema
import NeuralNetwork
import Randomness

/// The `stgcnpp` and `stgcnpp-small` families: ST-GCN++ (Duan et al., "PYSKL: Towards Good
/// Practices for Skeleton Action Recognition", ACM MM 2022) over the layout's skeleton graph
/// (``STGCNPlusPlusNetwork``), with the channel plan of a preset, PYSKL's six temporal branches
/// and every block's adjacency learned from the graph's.
public struct STGCNPlusPlusFamily: ModelFamily {
    /// The ST-GCN++ settings besides the preset's channel plan: none yet (the shared `dropout`
    /// and `normalizeInput` apply).
    public struct Settings: ModelSettings {
        /// Creates ST-GCN++ settings.
        public init() {}

        /// The defaults.
        package static var defaults: Settings { Settings() }

        package static var settings: [Setting<Settings>] { [] }

        public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
        public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
    }

    /// The channel plan.
    public let preset: STGCNPlusPlusNetwork.Preset

    /// The family of one preset.
    public init(preset: STGCNPlusPlusNetwork.Preset) {
        self.preset = preset
    }

    public var name: String { preset.rawValue }

    public var summary: String {
        switch preset {
        case .stgcnpp:
            "ST-GCN++ (Duan et al., PYSKL, ACM MM 2022): PYSKL's ten blocks of 64 to 256 channels with learned adjacency "
                + "and multi-scale temporal convolutions"
        case .stgcnppSmall: "ST-GCN++ with six blocks of 32 to 128 channels, for small data sets and fast sweeps"
        }
    }

    public func makeClassifier(_ settings: Settings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier {
        try STGCNPlusPlusNetwork(
            configuration: .init(
                channelCount: input.layout.channelCount, graph: input.layout.spatialGraph, classCount: input.classCount,
                blocks: preset.blocks, dropout: Float(input.dropout), keypointNormalization: input.keypointNormalization, stream: input.streamConfiguration),
            using: &generator)
    }

    /// Per block with `C_in → C` channels, `K` partitions, `V` joints and `B` = 6 branches of
    /// `c = C / B` channels: the graph convolution `[C_in → K·C]` and its adjacency `K·V²`, the
    /// residual projections `[C_in → C]`, the branches' 1×1 convolutions `[C → c]` (`C²` in all) and
    /// dilated ones `[3·c → c]`, the mixing `[C → C]`, and ~30 `C` of biases and normalizations.
    /// Activations per frame and joint: `K·C_in + K·C` in the graph convolution, ~6 `C` around it,
    /// and ~12 `C` in the temporal unit and residual at the block's output frames.
    public func memoryEstimate(_ settings: Settings, for input: ModelInput) -> TrainingMemoryEstimate? {
        let partitions = input.layout.spatialGraph.partitionCount
        let branches = MultiScaleTemporalConvolution.Branch.standard.count
        return TrainingMemoryEstimate.checked { count in
            let joints = input.layout.jointCount
            var width = input.layout.channelCount
            var frames = input.windowSize
            var parameters = try count.product(4, width, joints)
            var activations = try count.product(width, joints, frames)
            for block in preset.blocks {
                let channels = block.channels
                let branch = channels / branches
                let dilated = try count.product(branches - 2, 3, branch, branch)
                parameters = try count.sum(
                    parameters, try count.product(width, partitions, channels), try count.product(partitions, joints, joints),
                    try count.product(2, width, channels), try count.product(2, channels, channels), dilated,
                    try count.product(30, channels))
                let outFrames = (frames + block.stride - 1) / max(1, block.stride)
                let graphPart = try count.product(try count.sum(try count.product(partitions, width + channels), try count.product(6, channels)), joints, frames)
                activations = try count.sum(activations, graphPart, try count.product(12, channels, joints, outFrames))
                frames = outFrames
                width = channels
            }
            parameters = try count.sum(parameters, try count.product(width, input.classCount), input.classCount)
            return TrainingMemoryEstimate(parameters: parameters, activationsPerWindow: try count.sum(activations, input.classCount))
        }
    }

    public func planDescription(_ settings: Settings, for input: ModelInput) -> String {
        let edges = input.layout.edges.count
        let graph = edges == 0 ? "identity graph (layout has no edges)" : "skeleton graph of \(edges) edge\(edges == 1 ? "" : "s")"
        return "\(name.uppercased()) over the \(graph), learned adjacency, multi-scale temporal convolutions"
    }

    public func settingsDescription(_ settings: Settings) -> String {
        let channels = preset.blocks.map(\.channels)
        return "\(preset.blocks.count) blocks of \(channels.min() ?? 0) to \(channels.max() ?? 0) channels, "
            + "learned adjacency, \(MultiScaleTemporalConvolution.Branch.standard.count) temporal branches"
    }
}

extension ModelConfiguration {
    /// An ST-GCN++ model.
    ///
    /// - Parameters:
    ///   - preset: The channel plan (`stgcnpp` or `stgcnpp-small`).
    ///   - dropout: Dropout at the end of each block's temporal unit but the first's, in [0, 1).
    ///   - normalizeInput: Whether to normalize keypoints inside the model.
    public static func stgcnpp(
        _ preset: STGCNPlusPlusNetwork.Preset = .stgcnpp, dropout: Double = 0, normalizeInput: Bool = false
    ) -> ModelConfiguration {
        ModelConfiguration(STGCNPlusPlusFamily(preset: preset), .init(), dropout: dropout, normalizeInput: normalizeInput)
    }
}
