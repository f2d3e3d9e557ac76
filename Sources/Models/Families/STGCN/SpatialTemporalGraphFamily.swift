import ManifestSchema
import NeuralNetwork
import Randomness

/// The `stgcn` and `stgcn-small` families: ST-GCN (Yan, Xiong & Lin, AAAI 2018) over the
/// layout's skeleton graph (``SpatialTemporalGraphConvolutionalNetwork``), with the channel plan
/// of a preset and temporal kernel 9.
public struct SpatialTemporalGraphFamily: ModelFamily {
    /// The ST-GCN settings besides the preset's channel plan.
    public struct Settings: ModelSettings {
        /// Whether the network learns an importance weight for every edge of its graph
        /// (st-gcn's `edge_importance_weighting`).
        public var edgeImportance: Bool

        /// Creates ST-GCN settings.
        public init(edgeImportance: Bool) {
            self.edgeImportance = edgeImportance
        }

        /// The defaults: edge importance on, as in st-gcn's published models.
        package static var defaults: Settings { Settings(edgeImportance: true) }

        package static var settings: [Setting<Settings>] {
            [
                Setting("edgeImportance", \.edgeImportance, .boolean,
                        "learn an importance weight for every edge of the graph (st-gcn's `edge_importance_weighting`)"),
            ]
        }

        public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
        public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
    }

    /// The channel plan.
    public let preset: SpatialTemporalGraphConvolutionalNetwork.Preset

    /// The family of one preset.
    public init(preset: SpatialTemporalGraphConvolutionalNetwork.Preset) {
        self.preset = preset
    }

    public var name: String { preset.rawValue }

    public var summary: String {
        switch preset {
        case .stgcn: "ST-GCN (Yan et al., AAAI 2018) with st-gcn's nine blocks of 64 to 256 channels over the layout's skeleton graph"
        case .stgcnSmall: "ST-GCN with six blocks of 32 to 128 channels, for small data sets and fast sweeps"
        }
    }

    public func makeClassifier(_ settings: Settings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier {
        try SpatialTemporalGraphConvolutionalNetwork(
            configuration: .init(
                channelCount: input.layout.channelCount, graph: input.layout.spatialGraph, classCount: input.classCount,
                blocks: preset.blocks, edgeImportance: settings.edgeImportance, dropout: Float(input.dropout),
                keypointNormalization: input.keypointNormalization, stream: input.streamConfiguration),
            using: &generator)
    }

    /// Per block: a graph convolution `[C_in → K · C_out]` (K = 3 partitions), a temporal
    /// convolution `[9 · C_out → C_out]` and a residual `[C_in → C_out]`; activations per frame
    /// and joint: `K · C_out` graph outputs, eight `C_out` outputs (normalizations, ReLUs,
    /// residual, dropout) and the `9 · C_out` unfolded temporal input.
    public func memoryEstimate(_ settings: Settings, for input: ModelInput) -> TrainingMemoryEstimate? {
        let partitions = 3
        let temporalKernel = 9
        return TrainingMemoryEstimate.checked { count in
            let joints = input.layout.jointCount
            var width = input.layout.channelCount
            var frames = input.windowSize
            var parameters = try count.product(4, width, joints)
            var activations = try count.product(width, joints, frames)
            for block in preset.blocks {
                let channels = block.channels
                parameters = try count.sum(
                    parameters, try count.product(width, partitions, channels), try count.product(temporalKernel, channels, channels),
                    try count.product(width, channels), try count.product(12, channels))
                let perFrame = try count.sum(try count.product(partitions, channels), try count.product(8 + temporalKernel, channels))
                activations = try count.sum(activations, try count.product(perFrame, joints, frames))
                frames = (frames + block.stride - 1) / max(1, block.stride)
                width = channels
            }
            parameters = try count.sum(parameters, try count.product(width, input.classCount), input.classCount)
            return TrainingMemoryEstimate(parameters: parameters, activationsPerWindow: try count.sum(activations, input.classCount))
        }
    }

    public func planDescription(_ settings: Settings, for input: ModelInput) -> String {
        let edges = input.layout.edges.count
        let graph = edges == 0 ? "identity graph (layout has no edges)" : "skeleton graph of \(edges) edge\(edges == 1 ? "" : "s")"
        return "\(name.uppercased()) over the \(graph), edge importance \(settings.edgeImportance ? "on" : "off")"
    }

    public func settingsDescription(_ settings: Settings) -> String {
        let channels = preset.blocks.map(\.channels)
        return "\(preset.blocks.count) blocks of \(channels.min() ?? 0) to \(channels.max() ?? 0) channels, "
            + "edge importance \(settings.edgeImportance ? "on" : "off")"
    }
}

extension ModelConfiguration {
    /// An ST-GCN model.
    ///
    /// - Parameters:
    ///   - preset: The channel plan (`stgcn` or `stgcn-small`).
    ///   - edgeImportance: Whether to learn edge importance weights.
    ///   - dropout: Dropout at the end of each block's temporal part, in [0, 1).
    ///   - normalizeInput: Whether to normalize keypoints inside the model.
    public static func stgcn(
        _ preset: SpatialTemporalGraphConvolutionalNetwork.Preset = .stgcn, edgeImportance: Bool = true, dropout: Double = 0,
        normalizeInput: Bool = false
    ) -> ModelConfiguration {
        ModelConfiguration(
            SpatialTemporalGraphFamily(preset: preset), .init(edgeImportance: edgeImportance), dropout: dropout,
            normalizeInput: normalizeInput)
    }
}
