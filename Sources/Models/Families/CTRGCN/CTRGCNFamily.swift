import ManifestSchema
import NeuralNetwork
import Randomness

/// The `ctrgcn` and `ctrgcn-small` families: CTR-GCN (Chen et al., "Channel-wise Topology
/// Refinement Graph Convolution for Skeleton-Based Action Recognition", ICCV 2021) over the
/// layout's skeleton graph (``CTRGCNNetwork``, PYSKL's `CTRGCN`), with the channel plan of a
/// preset, every unit refining its learned adjacency per channel, and CTR-GCN's temporal branches
/// (kernel 5, dilations 1 and 2, a max pooling, a 1×1). It has an ONNX translation and no Core ML
/// one: exporting it to Core ML is refused by name (`ExportError.unsupportedModel`).
public struct CTRGCNFamily: ModelFamily {
    /// The CTR-GCN settings besides the preset's channel plan: none yet (the shared `dropout`,
    /// `normalizeInput` and `stream` apply).
    public struct Settings: ModelSettings {
        /// Creates CTR-GCN settings.
        public init() {}

        /// The defaults.
        package static var defaults: Settings { Settings() }

        package static var settings: [Setting<Settings>] { [] }

        public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
        public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
    }

    /// The channel plan.
    public let preset: CTRGCNNetwork.Preset

    /// The family of one preset.
    public init(preset: CTRGCNNetwork.Preset) {
        self.preset = preset
    }

    public var name: String { preset.rawValue }

    public var summary: String {
        switch preset {
        case .ctrgcn:
            "CTR-GCN (Chen et al., ICCV 2021): PYSKL's ten blocks of 64 to 256 channels with channel-wise topology refinement "
                + "and multi-scale temporal convolutions"
        case .ctrgcnSmall: "CTR-GCN with six blocks of 32 to 128 channels, for small data sets and fast sweeps"
        }
    }

    public func makeClassifier(_ settings: Settings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier {
        try CTRGCNNetwork(
            configuration: .init(
                channelCount: input.layout.channelCount, graph: input.layout.spatialGraph, classCount: input.classCount,
                blocks: preset.blocks, dropout: Float(input.dropout), keypointNormalization: input.keypointNormalization,
                stream: input.streamConfiguration),
            using: &generator)
    }

    /// Per block with `C_in → C` channels, `K` subsets, `V` joints, `R` relation channels and
    /// `c = C / 4` channels per temporal branch: each subset's `conv1`, `conv2` `[C_in → R]`, `conv3`
    /// `[C_in → C]` and `conv4` `[R → C]`, the adjacency `K·V²`, the unit's and the block's residual
    /// projections `[C_in → C]`, the branches' 1×1 convolutions (`C²` in all) and two dilated ones
    /// `[5·c → c]`, and ~30 `C` of biases and normalizations. Activations per frame and joint:
    /// `K·(C + 2·C)` in the graph unit (`X₃`, its product, the sum) and ~6 `C` around it, the
    /// refined topologies `2·K·(C + R)·V` per window and joint, and ~12 `C` in the temporal unit and
    /// residual at the block's output frames.
    public func memoryEstimate(_ settings: Settings, for input: ModelInput) -> TrainingMemoryEstimate? {
        let subsets = input.layout.spatialGraph.partitionCount
        let branches = MSG3DTemporalConvolution.ctrgcnDilations.count + 2
        return TrainingMemoryEstimate.checked { count in
            let joints = input.layout.jointCount
            var width = input.layout.channelCount
            var frames = input.windowSize
            var parameters = try count.product(4, width, joints)
            var activations = try count.product(width, joints, frames)
            for block in preset.blocks {
                let channels = block.channels
                let relations = ChannelwiseTopologyRefinement.relationChannels(inChannels: width)
                let branch = channels / branches
                let perSubset = try count.sum(
                    try count.product(2, width, relations), try count.product(width, channels), try count.product(relations, channels))
                parameters = try count.sum(
                    parameters, try count.product(subsets, perSubset), try count.product(subsets, joints, joints),
                    try count.product(2, width, channels), try count.product(channels, channels),
                    try count.product(2, MSG3DTemporalConvolution.ctrgcnKernelSize, branch, branch),
                    try count.product(30, channels))
                let outFrames = (frames + block.stride - 1) / max(1, block.stride)
                let graphPart = try count.product(try count.sum(try count.product(3, subsets, channels), try count.product(6, channels)), joints, frames)
                let topologies = try count.product(2, subsets, channels + relations, joints, joints)
                activations = try count.sum(activations, graphPart, topologies, try count.product(12, channels, joints, outFrames))
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
        return "\(name.uppercased()) over the \(graph), channel-wise topology refinement, multi-scale temporal convolutions"
    }

    public func settingsDescription(_ settings: Settings) -> String {
        let channels = preset.blocks.map(\.channels)
        let dilations = MSG3DTemporalConvolution.ctrgcnDilations.map(String.init).joined(separator: ", ")
        return "\(preset.blocks.count) blocks of \(channels.min() ?? 0) to \(channels.max() ?? 0) channels, "
            + "channel-wise topology refinement, temporal kernel \(MSG3DTemporalConvolution.ctrgcnKernelSize) "
            + "with dilations \(dilations), max pooling and 1×1 branches"
    }
}

extension ModelConfiguration {
    /// A CTR-GCN model.
    ///
    /// - Parameters:
    ///   - preset: The channel plan (`ctrgcn` or `ctrgcn-small`).
    ///   - dropout: Dropout at the end of each block's temporal unit but the first's, in [0, 1).
    ///   - normalizeInput: Whether to normalize keypoints inside the model.
    public static func ctrgcn(
        _ preset: CTRGCNNetwork.Preset = .ctrgcn, dropout: Double = 0, normalizeInput: Bool = false
    ) -> ModelConfiguration {
        ModelConfiguration(CTRGCNFamily(preset: preset), .init(), dropout: dropout, normalizeInput: normalizeInput)
    }
}
