/// The network that classifies a window of keypoints.
public struct ModelConfiguration: Sendable, Hashable, Codable {
    /// The model family. More kinds (MLP) join as cases.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// A temporal convolutional network: 1-D convolutions over time with the joints and
        /// channels of each frame as input features.
        case tcn
        /// ST-GCN (Yan et al., AAAI 2018) with st-gcn's nine blocks, 64 to 256 channels, over the
        /// layout's skeleton graph (`SpatialTemporalGraphConvolutionalNetwork.Preset.stgcn`).
        case stgcn
        /// ST-GCN with six blocks of 32 to 128 channels, for small data sets and fast sweeps.
        case stgcnSmall = "stgcn-small"

        /// Whether the kind is a graph model, which ignores ``channels`` and ``kernelSizes``.
        public var isGraphModel: Bool { self != .tcn }
    }

    /// The model family.
    public var kind: Kind
    /// The number of output channels of each convolutional layer, first layer first.
    public var channels: [Int]
    /// The temporal kernel size of each layer, in frames; odd, so that padding keeps the
    /// sequence length. One per entry of ``channels``.
    public var kernelSizes: [Int]
    /// The dropout probability after each layer (for ST-GCN: at the end of each block's temporal
    /// part), in [0, 1).
    public var dropout: Double
    /// Whether an ST-GCN learns an importance weight for every edge of its graph (st-gcn's
    /// `edge_importance_weighting`); graph models only.
    public var edgeImportance: Bool

    /// Creates a model configuration; the default is a three-layer TCN.
    ///
    /// ``channels`` and ``kernelSizes`` configure the TCN; graph models take their channel plan
    /// from their preset and use temporal kernel 9.
    public init(
        kind: Kind = .tcn, channels: [Int] = [64, 64, 64], kernelSizes: [Int] = [7, 5, 3], dropout: Double = 0,
        edgeImportance: Bool = true
    ) {
        self.kind = kind
        self.channels = channels
        self.kernelSizes = kernelSizes
        self.dropout = dropout
        self.edgeImportance = edgeImportance
    }
}

extension ModelConfiguration {
    init(reading object: ManifestObjectReader) {
        self.init()
        object.read("kind", into: &kind) { $0.choice(Kind.self) }
        let channelsOutcome = object.read("channels", into: &channels) { $0.array(minimumCount: 1) { $0.integer(.atLeast(1)) } }
        let kernelSizesOutcome = object.read("kernelSizes", into: &kernelSizes) { $0.array(minimumCount: 1, Self.kernelSize(from:)) }
        object.read("dropout", into: &dropout) { $0.double(.unitInterval) }
        let edgeImportanceOutcome = object.read("edgeImportance", into: &edgeImportance) { $0.bool() }

        if kind.isGraphModel {
            for (key, outcome) in [("channels", channelsOutcome), ("kernelSizes", kernelSizesOutcome)]
            where outcome != .absent {
                object.member(key)?.report(
                    "contradictory values: \(object.path(key)) applies only to kind 'tcn', but "
                        + "\(object.path("kind")) is '\(kind.rawValue)', whose channel plan is fixed")
            }
            return
        }
        if edgeImportanceOutcome != .absent {
            object.member("edgeImportance")?.report(
                "contradictory values: \(object.path("edgeImportance")) applies only to graph models ('stgcn', "
                    + "'stgcn-small'), but \(object.path("kind")) is 'tcn'")
        }
        guard channelsOutcome != .invalid, kernelSizesOutcome != .invalid, channels.count != kernelSizes.count else { return }
        let message = "contradictory values: \(object.path("kernelSizes")) has \(kernelSizes.count) entries but "
            + "\(object.path("channels")) has \(channels.count); give one kernel size per layer"
        (object.member("kernelSizes") ?? object.member("channels") ?? object.node).report(message)
    }

    private static func kernelSize(from node: ManifestNode) -> Int? {
        guard let size = node.integer(.atLeast(1)) else { return nil }
        guard size % 2 == 1 else {
            node.report("value out of range: expected an odd kernel size, so that padding keeps the length, found \(size)")
            return nil
        }
        return size
    }
}
