/// Why a model could not be described as an ONNX graph.
public enum ONNXExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A layer in the model's tree has no ONNX translation.
    case unsupportedLayer(path: String, type: String)
    /// Two initializers or graph inputs would share a name.
    case duplicateName(String)
    /// Two metadata entries share a key (`ModelProto.metadata_props`: "keys should be distinct").
    case duplicateMetadataKey(String)
    /// The keypoint window does not fit the model's input.
    case inputShapeMismatch(model: String, expected: String, window: KeypointWindowShape)

    public var description: String {
        switch self {
        case let .unsupportedLayer(path, type):
            "layer '\(path)' (\(type)) has no ONNX translation"
        case let .duplicateName(name):
            "the ONNX graph already has a value named '\(name)'"
        case let .duplicateMetadataKey(key):
            "ONNX metadata key '\(key)' is given twice"
        case let .inputShapeMismatch(model, expected, window):
            "\(model) expects \(expected), but the window is \(window)"
        }
    }
}
