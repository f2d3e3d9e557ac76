import Foundation
import JSON5

/// How the value of one manifest setting is read from a manifest, written to and read back
/// from `resolved.json`, and described in the manifest reference.
///
/// A kind holds no key and no default: ``Setting`` pairs it with both. The readers report
/// their problems through ``ManifestNode`` (wrong type, out of range, unknown value), so every
/// setting of one kind gives the same messages.
package struct SettingKind<Value> {
    /// The type in words for the reference, such as `integer` or ``one of `adam`, `sgd` ``.
    package var type: String
    /// The allowed values in words for the reference, such as `[1, 100000]` or `≥ 0`; empty
    /// when any value of the type is allowed.
    package var bounds: String
    /// A value as a manifest writes it, for the reference's default column: `100`, `"adam"`,
    /// `[0]`; `nil` for no value (an optional setting that is not set).
    package var describe: (Value) -> String?
    /// Reads the value at a node, or returns `nil` after reporting why it cannot.
    package var read: (ManifestNode) -> Value?
    /// Writes the value under a key, in manifest form.
    package var encode: (Value, inout KeyedEncodingContainer<SettingCodingKey>, SettingCodingKey) throws -> Void
    /// Reads the value under a key back from manifest form, or returns `nil` when the key is absent.
    package var decode: (KeyedDecodingContainer<SettingCodingKey>, SettingCodingKey) throws -> Value?

    /// Creates a kind from its parts.
    package init(
        type: String, bounds: String = "", describe: @escaping (Value) -> String?, read: @escaping (ManifestNode) -> Value?,
        encode: @escaping (Value, inout KeyedEncodingContainer<SettingCodingKey>, SettingCodingKey) throws -> Void,
        decode: @escaping (KeyedDecodingContainer<SettingCodingKey>, SettingCodingKey) throws -> Value?
    ) {
        self.type = type
        self.bounds = bounds
        self.describe = describe
        self.read = read
        self.encode = encode
        self.decode = decode
    }
}

extension SettingKind where Value: Codable {
    /// A kind whose manifest form is the value's own `Codable` form.
    package init(type: String, bounds: String = "", describe: @escaping (Value) -> String?, read: @escaping (ManifestNode) -> Value?) {
        self.init(
            type: type, bounds: bounds, describe: describe, read: read,
            encode: { value, container, key in try container.encode(value, forKey: key) },
            decode: { container, key in try container.decodeIfPresent(Value.self, forKey: key) })
    }
}

extension SettingKind where Value == Int {
    /// An integer within `bounds`, written as digits (``ManifestNode/integer(_:)``).
    package static func integer(_ bounds: NumericBounds = .any) -> SettingKind {
        SettingKind(type: "integer", bounds: bounds.referenceText, describe: { "\($0)" }, read: { $0.integer(bounds) })
    }
}

extension SettingKind where Value == Double {
    /// A finite number within `bounds` (``ManifestNode/double(_:)``).
    package static func number(_ bounds: NumericBounds = .any) -> SettingKind {
        SettingKind(type: "number", bounds: bounds.referenceText, describe: { $0.manifestText }, read: { $0.double(bounds) })
    }
}

extension SettingKind where Value == Bool {
    /// `true` or `false`.
    package static var boolean: SettingKind {
        SettingKind(type: "Boolean", describe: { "\($0)" }, read: { $0.bool() })
    }
}

extension SettingKind where Value == String {
    /// Any string, the empty one included.
    package static var string: SettingKind {
        SettingKind(type: "string", describe: { JSONStringEscaping.quoted($0) }, read: { $0.string() })
    }

    /// A string of at least one character.
    package static var nonEmptyString: SettingKind {
        SettingKind(type: "string", bounds: "non-empty", describe: { JSONStringEscaping.quoted($0) }, read: { $0.nonEmptyString() })
    }
}

extension SettingKind where Value == URL {
    /// A file or folder path, resolved against the manifest's base directory (it need not
    /// exist); written back as a plain absolute path, read back from one or from a `file://` URL.
    package static var path: SettingKind {
        SettingKind(
            type: "path", describe: { JSONStringEscaping.quoted($0.path) }, read: { $0.resolvedPath() },
            encode: { url, container, key in try container.encode(url.path, forKey: key) },
            decode: { container, key in
                guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
                if text.hasPrefix("file://"), let url = URL(string: text) { return url }
                return URL(fileURLWithPath: text, isDirectory: false)
            })
    }

    /// A folder path, like ``path``, that may be missing (it is created when first needed) but
    /// must not name a file: a file there is reported at the value's line and column, where
    /// otherwise the first write into the folder would fail much later.
    package static var folderPath: SettingKind {
        var kind = path
        kind.read = { node in
            guard let url = node.resolvedPath() else { return nil }
            func shown(_ url: URL) -> String { EchoedText.shortened(url.path, maximumLength: EchoedText.maximumPathLength) }
            // The path itself, then its nearest existing ancestor, which must be a folder too.
            var candidate = url
            while true {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
                    guard isDirectory.boolValue else {
                        node.report(candidate == url
                            ? "\(shown(url)) is a file; expected a folder (created if missing)"
                            : "\(shown(url)) lies under \(shown(candidate)), which is a file; expected a folder (created if missing)")
                        return nil
                    }
                    return url
                }
                if (try? FileManager.default.destinationOfSymbolicLink(atPath: candidate.path)) != nil {
                    node.report("\(shown(candidate)) is a symbolic link to nothing; expected a folder (created if missing)")
                    return nil
                }
                let parent = candidate.deletingLastPathComponent()
                guard parent.path != candidate.path else { return url }
                candidate = parent
            }
        }
        return kind
    }

    /// A path, like ``path``, that must name an existing file (or a symbolic link to one): a
    /// missing file or a folder is reported at the value's line and column.
    package static var existingFile: SettingKind {
        var kind = path
        kind.bounds = "an existing file"
        kind.read = { node in
            guard let (url, isDirectory) = node.existingItem() else { return nil }
            guard !isDirectory else {
                node.report("\(EchoedText.shortened(url.path, maximumLength: EchoedText.maximumPathLength)) is a folder; expected a file")
                return nil
            }
            return url
        }
        return kind
    }
}

extension SettingKind where Value: ManifestChoice & Codable {
    /// One of the choice's values (``ManifestNode/choice(_:)``).
    package static func choice(_ type: Value.Type) -> SettingKind {
        SettingKind(
            type: "one of " + Value.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "),
            describe: { JSONStringEscaping.quoted($0.rawValue) }, read: { $0.choice(Value.self) })
    }
}

extension SettingKind {
    /// A value of `kind` or nothing: an absent key keeps `nil`, and `nil` is not written.
    package static func optional<Wrapped>(_ kind: SettingKind<Wrapped>) -> SettingKind where Value == Wrapped? {
        SettingKind(
            type: kind.type, bounds: kind.bounds, describe: { $0.flatMap(kind.describe) },
            read: { node in kind.read(node).map(Optional.some) },
            encode: { value, container, key in
                if let value { try kind.encode(value, &container, key) }
            },
            decode: { container, key in try kind.decode(container, key).map(Optional.some) })
    }

    /// A list of values of `element`.
    ///
    /// - Parameters:
    ///   - element: The kind of each element.
    ///   - minimumCount: The fewest elements allowed.
    ///   - distinctNoun: When given, the elements must be distinct, and a repeat is reported at
    ///     its position as `contradictory values: <noun> <value> repeats <path>; <noun>s must be distinct`.
    package static func list<Element: Codable & Hashable>(
        _ element: SettingKind<Element>, minimumCount: Int = 0, distinct distinctNoun: String? = nil
    ) -> SettingKind where Value == [Element] {
        let plural = element.type.hasSuffix("s") ? element.type : element.type + "s"
        var bounds: [String] = []
        if minimumCount > 0 { bounds.append("at least \(minimumCount) element\(minimumCount == 1 ? "" : "s")") }
        if distinctNoun != nil { bounds.append("distinct") }
        if !element.bounds.isEmpty { bounds.append("each \(element.bounds)") }
        return SettingKind(
            type: "list of \(plural)", bounds: bounds.joined(separator: ", "),
            describe: { values in "[" + values.map { element.describe($0) ?? "null" }.joined(separator: ", ") + "]" },
            read: { node in
                var firstIndex: [Element: Int] = [:]
                var index = -1
                return node.array(minimumCount: minimumCount) { child in
                    index += 1
                    guard let value = element.read(child) else { return nil }
                    if let distinctNoun {
                        if let first = firstIndex[value] {
                            child.report(
                                "contradictory values: \(distinctNoun) \(value) repeats \(node.path.appending(index: first)); "
                                    + "\(distinctNoun.hasSuffix("is") ? distinctNoun.dropLast(2) + "es" : distinctNoun + "s") must be distinct")
                            return nil
                        }
                        firstIndex[value] = index
                    }
                    return value
                }
            })
    }
}
