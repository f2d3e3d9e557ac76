import NeuralNetwork
import Pose

/// What a model family builds a classifier for: the windows' layout and length, the classes,
/// and the settings every family shares.
public struct ModelInput: Sendable {
    /// The skeleton layout of the windows: `C` channels and `J` joints, and the graph edges.
    public var layout: SkeletonLayout
    /// Frames per window, `T`.
    public var windowSize: Int
    /// Number of classes, the width of the logits.
    public var classCount: Int
    /// The dropout probability, in [0, 1) (`model.dropout`); where it applies is the family's.
    public var dropout: Double
    /// Whether the model centres and scales x and y itself (`model.normalizeInput`).
    public var normalizeInput: Bool
    /// The stream the model computes from the keypoints (`model.stream`).
    public var stream: KeypointStream

    /// Creates a description of the data a model is built for.
    ///
    /// - Parameters:
    ///   - layout: The skeleton layout (`features.layout`).
    ///   - windowSize: Frames per window.
    ///   - classCount: Number of classes.
    ///   - dropout: The dropout probability.
    ///   - normalizeInput: Whether to normalize keypoints inside the model.
    ///   - stream: The stream to compute from the keypoints (default: the joints).
    public init(
        layout: SkeletonLayout, windowSize: Int, classCount: Int, dropout: Double = 0, normalizeInput: Bool = false,
        stream: KeypointStream = .joint
    ) {
        self.layout = layout
        self.windowSize = windowSize
        self.classCount = classCount
        self.dropout = dropout
        self.normalizeInput = normalizeInput
        self.stream = stream
    }
}
