/// A network that maps a batch of windows to class scores (logits).
///
/// A classifier is a ``Layer`` whose ``Layer/forward(_:training:)`` returns logits `[N, classCount]`
/// and whose ``Layer/backward(_:)`` takes ∂loss/∂logits (for example the gradient of
/// ``softmaxCrossEntropy(logits:labels:classWeights:labelSmoothing:reduction:)``) and returns
/// ∂loss/∂input. ``Layer/parameters``, ``Layer/parameterCount``, ``Layer/stateDictionary()`` and
/// ``Layer/load(stateDictionary:)`` come from ``Layer``.
public protocol Classifier: Layer {
    /// The number of classes, the width of the logits.
    var classCount: Int { get }

    /// The shape of one input window without the batch dimension, e.g. `[C·J, T]`;
    /// `nil` entries accept any extent (such as a variable number of frames).
    var inputShape: [Int?] { get }
}
