/// Why a model could not be described as a Core ML neural network.
public enum CoreMLExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A layer in the model's tree has no Core ML translation.
    case unsupportedLayer(path: String, type: String)
    /// Two layers or blobs would share a name.
    case duplicateName(String)
    /// Two metadata entries share a key (`Metadata.userDefined` is a map).
    case duplicateMetadataKey(String)
    /// The keypoint window does not fit the model's input.
    case inputShapeMismatch(model: String, expected: String, window: KeypointWindowShape)

    public var description: String {
        switch self {
        case let .unsupportedLayer(path, type):
            "layer '\(path)' (\(type)) has no Core ML translation"
        case let .duplicateName(name):
            "the Core ML network already has a layer or blob named '\(name)'"
        case let .duplicateMetadataKey(key):
            "Core ML metadata key '\(key)' is given twice"
        case let .inputShapeMismatch(model, expected, window):
            "\(model) expects \(expected), but the window is \(window)"
        }
    }
}
