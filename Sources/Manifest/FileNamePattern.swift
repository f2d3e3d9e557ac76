import Foundation

/// A regular expression that takes fields (label, subject, trial, camera, any named group) from
/// a file's name, as datasets of segmented actions encode them: UTD-MHAD's
/// `a(?<label>\d+)_s(?<subject>\d+)_t(?<trial>\d+)_skeleton\.mat`, NTU RGB+D's
/// `S(?<setup>\d{3})C(?<camera>\d{3})P(?<subject>\d{3})R(?<replication>\d{3})A(?<label>\d{3})`.
///
/// The expression must match the whole file name (the last path component, extension
/// included); its named groups are the fields. The group `label` is the sample's label; the
/// others (such as `subject`) are what splits group and select by
/// (``ValidationConfiguration/groupBy``, ``TestSetConfiguration/selection``). Syntax: Swift
/// `Regex` (the ICU/Perl syntax with `(?<name>…)` groups).
public struct FileNamePattern: Sendable, Hashable {
    /// The expression as the manifest wrote it.
    public let source: String
    /// The names of its named groups, in order of appearance.
    public let fieldNames: [String]

    /// Compiles `source`.
    ///
    /// - Throws: ``FileNamePatternError/invalid(_:reason:)`` if it is not a regular expression,
    ///   ``FileNamePatternError/noNamedGroups(_:)`` if it has no named group.
    public init(_ source: String) throws {
        do {
            _ = try Regex(source)
        } catch {
            throw FileNamePatternError.invalid(source, reason: "\(error)")
        }
        let names = Self.groupNames(in: source)
        guard !names.isEmpty else { throw FileNamePatternError.noNamedGroups(source) }
        self.source = source
        fieldNames = names
    }

    /// Whether the pattern names a `label` group.
    public var providesLabel: Bool { fieldNames.contains("label") }

    /// The fields of `fileName`, or nil if the expression does not match all of it.
    ///
    /// - Parameter fileName: A file name (no folders), such as `a3_s2_t4_skeleton.mat`.
    /// - Returns: Each named group that took part in the match, by name.
    public func fields(of fileName: String) -> [String: String]? {
        guard let regex = try? Regex(source), let match = try? regex.wholeMatch(in: fileName) else { return nil }
        var fields: [String: String] = [:]
        for capture in match.output {
            if let name = capture.name, let range = capture.range { fields[name] = String(fileName[range]) }
        }
        return fields
    }

    /// The names of the named groups `(?<name>…)` of an expression that compiles, in order: an
    /// `(?<` not escaped by a backslash and not a look-behind (`(?<=`, `(?<!`).
    private static func groupNames(in source: String) -> [String] {
        var names: [String] = []
        var index = source.startIndex
        while let open = source[index...].range(of: "(?<") {
            let escaped = open.lowerBound > source.startIndex && source[source.index(before: open.lowerBound)] == "\\"
            guard let close = source[open.upperBound...].firstIndex(of: ">") else { break }
            let name = String(source[open.upperBound..<close])
            if !escaped, let first = name.first, first != "=", first != "!", !names.contains(name) { names.append(name) }
            index = close
        }
        return names
    }
}

/// A file-name pattern that cannot be used.
public enum FileNamePatternError: Error, Equatable, CustomStringConvertible {
    /// The text is not a regular expression.
    case invalid(String, reason: String)
    /// The expression has no named group, so it gives no field.
    case noNamedGroups(String)

    public var description: String {
        switch self {
        case let .invalid(source, reason): "not a regular expression: '\(source)': \(reason)"
        case let .noNamedGroups(source):
            "the pattern '\(source)' has no named group: name each field as (?<label>...), (?<subject>...)"
        }
    }
}
