/// A path from the root of a JSON document to one of its values, such as
/// `dataset.sources[2].path`.
///
/// Keys that are plain identifiers render after a dot; other keys render in brackets as
/// quoted strings (`dataset.labels["jumping jacks"]`); array indices render in brackets.
/// The root path renders as the empty string.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Hashable, Sendable {
        /// A member of an object.
        case key(String)
        /// An element of an array, counted from 0.
        case index(Int)
    }

    /// The steps from the root, outermost first.
    public var components: [Component]

    /// Creates a path from its steps; the default is the root.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The root of the document.
    public static let root = JSONPath()

    /// This path extended by an object key.
    public func appending(key: String) -> JSONPath {
        JSONPath(components + [.key(key)])
    }

    /// This path extended by an array index.
    public func appending(index: Int) -> JSONPath {
        JSONPath(components + [.index(index)])
    }

    /// The path in dotted form, for example `dataset.validation.fraction`; a key longer than
    /// ``EchoedText/maximumLength`` is shortened (``EchoedText/shortened(_:)``).
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key) where Self.isPlainIdentifier(key) && key.unicodeScalars.count <= EchoedText.maximumLength:
                if !text.isEmpty { text += "." }
                text += key
            case .key(let key):
                text += "[\(JSONStringEscaping.quoted(EchoedText.shortened(key)))]"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// Whether a key can be written after a dot: ASCII letters, digits, `_` and `$`, not
    /// starting with a digit.
    private static func isPlainIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "$")
        }
    }
}
