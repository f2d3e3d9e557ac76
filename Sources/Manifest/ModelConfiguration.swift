import ManifestSchema
import Pose

/// The network that classifies a window of keypoints.
public struct ModelConfiguration: Sendable, Hashable, Codable {
    /// The model family.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// A temporal convolutional network: 1-D convolutions over time with the joints and
        /// channels of each frame as input features.
        case tcn
        /// ST-GCN (Yan et al., AAAI 2018) with st-gcn's nine blocks, 64 to 256 channels, over the
        /// layout's skeleton graph (`SpatialTemporalGraphConvolutionalNetwork.Preset.stgcn`).
        case stgcn
        /// ST-GCN with six blocks of 32 to 128 channels, for small data sets and fast sweeps.
        case stgcnSmall = "stgcn-small"
        /// A multilayer perceptron over the whole flattened window: one hidden layer of
        /// ``hiddenUnits`` (a baseline without temporal or skeletal structure).
        case mlp

        /// Whether the kind is a graph model, which ignores ``channels`` and ``kernelSizes``.
        public var isGraphModel: Bool { self == .stgcn || self == .stgcnSmall }
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
    /// The width of the hidden layer of ``Kind/mlp``.
    public var hiddenUnits: Int
    /// Whether the model centres and scales each frame's x and y itself
    /// (`KeypointNormalization`: neck or mean of the detected joints, mean joint distance), so
    /// that an exported model takes raw keypoints; body-pose layouts (x, y, confidence) only.
    public var normalizeInput: Bool

    /// Creates a model configuration; the default is a three-layer TCN.
    ///
    /// ``channels`` and ``kernelSizes`` configure the TCN; graph models take their channel plan
    /// from their preset and use temporal kernel 9.
    public init(
        kind: Kind = .tcn, channels: [Int] = [64, 64, 64], kernelSizes: [Int] = [7, 5, 3], dropout: Double = 0,
        edgeImportance: Bool = true, hiddenUnits: Int = 256, normalizeInput: Bool = false
    ) {
        self.kind = kind
        self.channels = channels
        self.kernelSizes = kernelSizes
        self.dropout = dropout
        self.edgeImportance = edgeImportance
        self.hiddenUnits = hiddenUnits
        self.normalizeInput = normalizeInput
    }
}

extension ModelConfiguration {
    init(reading object: ManifestObjectReader, layout: SkeletonLayout) {
        self.init()
        object.read("kind", into: &kind) { $0.choice(Kind.self) }
        let channelsOutcome = object.read("channels", into: &channels) { $0.array(minimumCount: 1) { $0.integer(.atLeast(1)) } }
        let kernelSizesOutcome = object.read("kernelSizes", into: &kernelSizes) { $0.array(minimumCount: 1, Self.kernelSize(from:)) }
        object.read("dropout", into: &dropout) { $0.double(.unitInterval) }
        let edgeImportanceOutcome = object.read("edgeImportance", into: &edgeImportance) { $0.bool() }
        let hiddenUnitsOutcome = object.read("hiddenUnits", into: &hiddenUnits) { $0.integer(.atLeast(1)) }
        object.read("normalizeInput", into: &normalizeInput) { $0.bool() }

        if normalizeInput && !layout.isImagePose {
            object.member("normalizeInput")?.report(
                "contradictory values: \(object.path("normalizeInput")) needs a body-pose layout with channels x, y and "
                    + "confidence, but layout '\(layout.name)' has \(layout.channels)")
        }
        if hiddenUnitsOutcome != .absent && kind != .mlp {
            object.member("hiddenUnits")?.report(
                "contradictory values: \(object.path("hiddenUnits")) applies only to kind 'mlp', but "
                    + "\(object.path("kind")) is '\(kind.rawValue)'")
        }
        if kind != .tcn {
            for (key, outcome) in [("channels", channelsOutcome), ("kernelSizes", kernelSizesOutcome)]
            where outcome != .absent {
                object.member(key)?.report(
                    "contradictory values: \(object.path(key)) applies only to kind 'tcn', but "
                        + "\(object.path("kind")) is '\(kind.rawValue)'" + (kind.isGraphModel ? ", whose channel plan is fixed" : ""))
            }
        }
        if kind.isGraphModel { return }
        if edgeImportanceOutcome != .absent {
            object.member("edgeImportance")?.report(
                "contradictory values: \(object.path("edgeImportance")) applies only to graph models ('stgcn', "
                    + "'stgcn-small'), but \(object.path("kind")) is '\(kind.rawValue)'")
        }
        guard kind == .tcn else { return }
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
