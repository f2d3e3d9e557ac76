/// A parsed JSON5 value together with the place in the source text where it starts.
///
/// Every node of a parsed document, down to array elements and object members, carries its
/// ``location``, so that a configuration reader can point at the exact line and column of a
/// problem. Object members keep the order in which they appear in the source.
///
/// Two values compare equal when their contents are equal; source locations are not compared,
/// so a value parsed from a reformatted document equals the original.
public struct JSON5Value: Sendable, CustomStringConvertible {
    /// The content of a JSON5 value.
    public enum Kind: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, including `NaN`, `Infinity` and `-Infinity`.
        case number(JSON5Number)
        /// A string.
        case string(String)
        /// An array of values.
        case array([JSON5Value])
        /// An object's members in source order; keys are unique.
        case object([JSON5Member])
    }

    /// What the value is.
    public var kind: Kind
    /// Where the value starts in the source text; ``SourceLocation/start`` for built values.
    public var location: SourceLocation

    /// Creates a value, by default located at the start of a document.
    public init(_ kind: Kind, at location: SourceLocation = .start) {
        self.kind = kind
        self.location = location
    }

    /// The string, if this value is one.
    public var stringValue: String? {
        if case .string(let string) = kind { return string }
        return nil
    }

    /// The number, if this value is one.
    public var numberValue: JSON5Number? {
        if case .number(let number) = kind { return number }
        return nil
    }

    /// The Boolean, if this value is one.
    public var boolValue: Bool? {
        if case .bool(let bool) = kind { return bool }
        return nil
    }

    /// The elements, if this value is an array.
    public var arrayValue: [JSON5Value]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    /// The members in source order, if this value is an object.
    public var objectMembers: [JSON5Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// Whether this value is `null`.
    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// The value of an object member, or `nil` if this is not an object or has no such key.
    public subscript(key: String) -> JSON5Value? {
        objectMembers?.first { $0.key == key }?.value
    }

    /// The kind of value with an article, for messages: `a string`, `an object`, `null`.
    public var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as pretty-printed JSON with keys in source order.
    public var description: String { jsonString() }
}

extension JSON5Value: Equatable {
    /// Whether two values have the same content, ignoring source locations.
    ///
    /// Numbers compare by double value, so `NaN` is not equal to itself, as in IEEE 754.
    public static func == (lhs: JSON5Value, rhs: JSON5Value) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.null, .null): true
        case let (.bool(left), .bool(right)): left == right
        case let (.number(left), .number(right)): left.doubleValue == right.doubleValue
        case let (.string(left), .string(right)): left == right
        case let (.array(left), .array(right)): left == right
        case let (.object(left), .object(right)): left == right
        default: false
        }
    }
}

/// One `key: value` member of a JSON5 object.
public struct JSON5Member: Sendable, Equatable {
    /// The member's key, with escapes resolved.
    public var key: String
    /// Where the key starts in the source text.
    public var keyLocation: SourceLocation
    /// The member's value.
    public var value: JSON5Value

    /// Creates a member.
    public init(key: String, keyLocation: SourceLocation = .start, value: JSON5Value) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }

    /// Whether two members have the same key and value, ignoring source locations.
    public static func == (lhs: JSON5Member, rhs: JSON5Member) -> Bool {
        lhs.key == rhs.key && lhs.value == rhs.value
    }
}
