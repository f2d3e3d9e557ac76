import Manifest
import NeuralNetwork
import Pose
import Randomness

/// Builds the classifier a manifest's `model` section names.
package enum ModelFactory {
    /// A freshly initialized model taking the trainer's `[N, C·J, T]` batches.
    /// - Parameters:
    ///   - configuration: The manifest's `model` section.
    ///   - layout: The skeleton layout of the windows (`features.layout`): `C` channels and `J`
    ///     joints; graph models build their graph from its edges (``graph(for:)``).
    ///   - windowSize: Frames per window `T` (the MLP's input is a whole window).
    ///   - classCount: Number of classes.
    ///   - generator: The initialization stream; the model's weights depend only on it.
    /// - Throws: The model's `InvalidConfiguration` for settings the manifest validation let
    ///   through but the model rejects (fewer than two classes).
    package static func make(
        _ configuration: ModelConfiguration, layout: SkeletonLayout, windowSize: Int, classCount: Int,
        using generator: inout SeededGenerator
    ) throws -> any Classifier {
        let normalization = configuration.normalizeInput ? keypointNormalization(for: layout) : nil
        let preset: SpatialTemporalGraphConvolutionalNetwork.Preset
        switch configuration.kind {
        case .tcn:
            return try TemporalConvolutionalNetwork(
                configuration: .init(
                    inputChannels: layout.channelCount * layout.jointCount, classCount: classCount,
                    channels: configuration.channels, kernelSizes: configuration.kernelSizes,
                    dropout: Float(configuration.dropout), keypointNormalization: normalization),
                using: &generator)
        case .mlp:
            return try MultilayerPerceptron(
                configuration: .init(
                    inputChannels: layout.channelCount * layout.jointCount, frames: windowSize,
                    hiddenUnits: configuration.hiddenUnits, classCount: classCount, dropout: Float(configuration.dropout),
                    keypointNormalization: normalization),
                using: &generator)
        case .stgcn: preset = .stgcn
        case .stgcnSmall: preset = .stgcnSmall
        }
        return try SpatialTemporalGraphConvolutionalNetwork(
            configuration: .init(
                channelCount: layout.channelCount, graph: graph(for: layout), classCount: classCount,
                blocks: preset.blocks, edgeImportance: configuration.edgeImportance,
                dropout: Float(configuration.dropout), keypointNormalization: normalization),
            using: &generator)
    }

    /// Where the in-model normalization finds x, y, confidence and the centre joint (`neck`) of
    /// a body-pose layout, or nil for a layout without those channels.
    static func keypointNormalization(for layout: SkeletonLayout) -> KeypointNormalization.Configuration? {
        guard let x = layout.channels.firstIndex(of: "x"), let y = layout.channels.firstIndex(of: "y"),
              let confidence = layout.channels.firstIndex(of: "confidence") else { return nil }
        return KeypointNormalization.Configuration(
            channelCount: layout.channelCount, jointCount: layout.jointCount, xChannel: x, yChannel: y,
            confidenceChannel: confidence, centreJoint: layout.joints.firstIndex(of: "neck"))
    }

    /// The graph an ST-GCN uses for a layout.
    ///
    /// A layout with edges gets st-gcn's spatial-configuration graph (3 partitions) centred on
    /// its `neck` joint if it has one (joint 1 of Vision-18, as st-gcn's `openpose` layout), else
    /// on its most central joint (smallest eccentricity). A layout without edges (sensor channels)
    /// gets the identity graph (1 partition): each joint is convolved on its own and joints meet
    /// in the global pooling.
    ///
    /// - Parameter layout: The skeleton layout.
    /// - Returns: The graph over the layout's `J` joints.
    static func graph(for layout: SkeletonLayout) -> SpatialGraph {
        SpatialGraph(
            jointCount: layout.jointCount, edges: layout.edges.map { ($0.first, $0.second) },
            center: layout.joints.firstIndex(of: "neck"))
    }
}

/// Builds the optimizer a manifest's `training` section names.
enum OptimizerFactory {
    /// A fresh optimizer with PyTorch's semantics for the chosen algorithm.
    static func make(_ settings: TrainingConfiguration) -> any Optimizer {
        let learningRate = Float(settings.learningRate)
        let weightDecay = Float(settings.weightDecay)
        switch settings.optimizer {
        case .adam:
            return Adam(learningRate: learningRate, weightDecay: weightDecay)
        case .adamw:
            return AdamW(learningRate: learningRate, weightDecay: weightDecay)
        case .sgd:
            return SGD(learningRate: learningRate, momentum: Float(settings.momentum), weightDecay: weightDecay)
        }
    }
}
