/// Why tensors could not be written as a safetensors file.
public enum SafetensorsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Two tensors share a name; the header is a JSON object, whose keys must be distinct.
    case duplicateTensorName(String)
    /// A tensor is named `__metadata__`, the key the format reserves for metadata, or has an empty name.
    case invalidTensorName(String)

    public var description: String {
        switch self {
        case .duplicateTensorName(let name):
            "safetensors: tensor '\(name)' is given twice"
        case .invalidTensorName(let name):
            "safetensors: '\(name)' cannot name a tensor (empty, or the reserved key __metadata__)"
        }
    }
}
