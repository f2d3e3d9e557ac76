/// Why a model could not be described in an exchange format (an ONNX graph, a Core ML neural
/// network).
public enum ModelExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The formats whose translation can fail.
    public enum Format: String, Hashable, Sendable {
        case onnx = "ONNX"
        case coreML = "Core ML"
    }

    /// A layer in the model's tree has no translation into the format.
    case unsupportedLayer(Format, path: String, type: String)
    /// Two values (ONNX initializers or graph inputs, Core ML layers or blobs) would share a name.
    case duplicateName(Format, String)
    /// Two metadata entries share a key (ONNX's `ModelProto.metadata_props`: "keys should be
    /// distinct"; Core ML's `Metadata.userDefined` is a map).
    case duplicateMetadataKey(Format, String)
    /// The keypoint window does not fit the model's input.
    case inputShapeMismatch(Format, model: String, expected: String, window: KeypointWindowShape)
    /// The members of an ensemble cannot be fused into one model (none, differing class counts,
    /// repeated scopes, or weights that are negative or sum to 0).
    case invalidEnsemble(Format, reason: String)

    public var description: String {
        switch self {
        case let .unsupportedLayer(format, path, type):
            "layer '\(path)' (\(type)) has no \(format.rawValue) translation"
        case let .duplicateName(format, name):
            "the \(format.rawValue) model already has a value named '\(name)'"
        case let .duplicateMetadataKey(format, key):
            "\(format.rawValue) metadata key '\(key)' is given twice"
        case let .inputShapeMismatch(format, model, expected, window):
            "\(model) expects \(expected), but the window is \(window) (\(format.rawValue) export)"
        case let .invalidEnsemble(format, reason):
            "the ensemble cannot be exported as \(format.rawValue): \(reason)"
        }
    }
}
