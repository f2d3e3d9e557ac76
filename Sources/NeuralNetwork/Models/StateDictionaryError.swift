/// Why a state dictionary could not be loaded into a layer, model or optimizer.
public enum StateDictionaryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The layer has a tensor with this name that the dictionary lacks.
    case missingTensor(name: String)
    /// The dictionary has a tensor with this name that the layer does not.
    case unexpectedTensor(name: String)
    /// The dictionary names this tensor more than once.
    case duplicateTensor(name: String)
    /// The dictionary's tensor has another shape than the layer's.
    case shapeMismatch(name: String, expected: [Int], actual: [Int])

    public var description: String {
        switch self {
        case .missingTensor(let name):
            "state dictionary is missing tensor '\(name)'"
        case .unexpectedTensor(let name):
            "state dictionary has unexpected tensor '\(name)'"
        case .duplicateTensor(let name):
            "state dictionary has tensor '\(name)' more than once"
        case .shapeMismatch(let name, let expected, let actual):
            "state dictionary tensor '\(name)' has shape \(actual), expected \(expected)"
        }
    }

    /// Indexes `(name, tensor)` pairs by name, rejecting duplicates.
    static func indexByName(
        _ stateDictionary: [(name: String, tensor: Tensor)]
    ) throws -> [String: Tensor] {
        var index: [String: Tensor] = [:]
        for (name, tensor) in stateDictionary {
            guard index.updateValue(tensor, forKey: name) == nil else {
                throw StateDictionaryError.duplicateTensor(name: name)
            }
        }
        return index
    }
}
