import Foundation
import JSON5

/// One value of a manifest at its JSON path, with typed accessors that report problems.
///
/// Every accessor returns `nil` after recording an issue (wrong type, out of range, unknown
/// value, missing file) instead of throwing, so one pass over a manifest finds all of its
/// problems. Callers keep their default when an accessor returns `nil`.
package struct ManifestNode {
    /// The parsed value.
    package let value: JSON5Value
    /// Where the value is in the document.
    package let path: JSONPath
    /// Where issues go.
    package let diagnostics: ManifestDiagnostics

    /// A node for `value` at `path`, reporting to `diagnostics`.
    package init(value: JSON5Value, path: JSONPath, diagnostics: ManifestDiagnostics) {
        self.value = value
        self.path = path
        self.diagnostics = diagnostics
    }

    /// Records a problem with this value.
    package func report(_ message: String) {
        diagnostics.report(message, at: path, location: value.location)
    }

    /// The value of an array element or object member below this one.
    package func child(_ value: JSON5Value, at path: JSONPath) -> ManifestNode {
        ManifestNode(value: value, path: path, diagnostics: diagnostics)
    }

    // MARK: - Scalars

    /// The value as a string.
    package func string() -> String? {
        guard let string = value.stringValue else { return reportWrongType(expected: "a string") }
        return string
    }

    /// The value as a string of at least one character.
    package func nonEmptyString() -> String? {
        guard let string = string() else { return nil }
        guard !string.isEmpty else {
            report("value out of range: expected a non-empty string")
            return nil
        }
        return string
    }

    /// The value as a Boolean (`true` or `false`).
    package func bool() -> Bool? {
        guard let bool = value.boolValue else { return reportWrongType(expected: "a Boolean") }
        return bool
    }

    /// The value as a finite number within `bounds`.
    package func double(_ bounds: NumericBounds = .any) -> Double? {
        guard let number = value.numberValue?.doubleValue else { return reportWrongType(expected: "a number") }
        guard number.isFinite else {
            report("value out of range: expected a finite number, found \(JSON5Number(number))")
            return nil
        }
        guard bounds.contains(number) else {
            report("value out of range: expected a number\(bounds.description), found \(JSON5Number(number))")
            return nil
        }
        // Training computes in Float32: a number that is finite as a Double but infinite or 0 as
        // a Float (a learning rate of 1e308, a clip norm of 1e-50) is not the value written.
        let float = Float(number)
        guard float.isFinite, number == 0 || abs(float) >= Float.leastNormalMagnitude else {
            report(
                "value out of range: expected a number a 32-bit float holds (magnitude at most "
                    + "\(Float.greatestFiniteMagnitude) and, unless 0, at least \(Float.leastNormalMagnitude)), found \(JSON5Number(number)); keypoints, weights and losses are Float32")
            return nil
        }
        return number
    }

    /// The value as an integer within `bounds`: a number written as digits, without a fraction
    /// or an exponent (`3`, not `3.0` or `3e0`; ``JSON5Number/integerValue``).
    package func integer(_ bounds: NumericBounds = .any) -> Int? {
        guard let number = value.numberValue else { return reportWrongType(expected: "an integer") }
        guard let integer = number.integerValue else {
            let whole = number.doubleValue.rounded() == number.doubleValue && abs(number.doubleValue) < 1e15
            let tooLarge = number.doubleValue.rounded() == number.doubleValue && abs(number.doubleValue) >= 9.2e18
            if tooLarge {
                let range = bounds.description.isEmpty ? " of magnitude at most \(Int.max)" : bounds.description
                report("value out of range: expected an integer\(range), found \(number)")
                return nil
            }
            report("expected an integer, found \(number)"
                + (whole ? " written with a fraction or an exponent; write it as digits only (\(Int(number.doubleValue)))" : ""))
            return nil
        }
        guard bounds.contains(Double(integer)) else {
            report("value out of range: expected an integer\(bounds.description), found \(integer)")
            return nil
        }
        return integer
    }

    /// The value as one of a fixed set of strings.
    package func choice<Choice: ManifestChoice>(_ type: Choice.Type) -> Choice? {
        choice(among: Choice.allCases.map(\.rawValue)).flatMap(Choice.init(rawValue:))
    }

    /// The value as one of `names` (a set known only at run time, such as the registered model
    /// families), reporting an unknown value with the allowed ones and the nearest as a suggestion.
    package func choice(among names: [String]) -> String? {
        guard let string = string() else { return nil }
        guard names.contains(string) else {
            let suggestion = SpellingSuggestion.nearest(to: string, in: names)
            let allowed = names.map { "'\($0)'" }.joined(separator: ", ")
            report("unknown value '\(EchoedText.shortened(string))'; expected one of \(allowed)" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
            return nil
        }
        return string
    }

    // MARK: - Paths

    /// The value as a path, resolved against the base directory; it need not exist.
    ///
    /// A path holding the NUL character is reported: no file system path can (POSIX), and
    /// `URL` would silently write it as `%00`.
    package func resolvedPath() -> URL? {
        guard let path = nonEmptyString() else { return nil }
        guard !path.unicodeScalars.contains("\u{0}") else {
            report("value out of range: a path cannot contain the NUL character (\\u0000); remove it")
            return nil
        }
        return diagnostics.resolve(path)
    }

    /// The value as the resolved path of an existing file or directory.
    ///
    /// - Returns: The absolute URL and whether it names a directory, or `nil` after reporting
    ///   a missing file.
    package func existingItem() -> (url: URL, isDirectory: Bool)? {
        guard let url = resolvedPath() else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            report("missing file: no file or directory at \(EchoedText.shortened(url.path, maximumLength: EchoedText.maximumPathLength))")
            return nil
        }
        return (url, isDirectory.boolValue)
    }

    // MARK: - Containers

    /// The value as an array whose every element decodes.
    ///
    /// - Parameters:
    ///   - minimumCount: The fewest elements allowed.
    ///   - element: Decodes one element, reporting its own problems and returning `nil` for them.
    /// - Returns: The decoded elements, or `nil` if the value is not an array, is too short, or
    ///   has an element that did not decode (all elements are still visited).
    package func array<Element>(minimumCount: Int = 0, _ element: (ManifestNode) -> Element?) -> [Element]? {
        guard let elements = value.arrayValue else { return reportWrongType(expected: "an array") }
        guard elements.count >= minimumCount else {
            report("value out of range: expected at least \(minimumCount) element\(minimumCount == 1 ? "" : "s"), found \(elements.count)")
            return nil
        }
        let decoded = elements.enumerated().map { offset, value in
            element(child(value, at: path.appending(index: offset)))
        }
        let complete = decoded.compactMap { $0 }
        return complete.count == decoded.count ? complete : nil
    }

    /// The value as an object with arbitrary keys, such as a label map, whose every value decodes.
    package func dictionary<Value>(_ decodeValue: (ManifestNode) -> Value?) -> [String: Value]? {
        guard let members = value.objectMembers else { return reportWrongType(expected: "an object") }
        var result: [String: Value] = [:]
        var isComplete = true
        for member in members {
            if let decoded = decodeValue(child(member.value, at: path.appending(key: member.key))) {
                result[member.key] = decoded
            } else {
                isComplete = false
            }
        }
        return isComplete ? result : nil
    }

    /// The value as an object with a fixed set of keys, read by `body`.
    ///
    /// Every key that `body` does not ask for is reported as unknown, with the nearest known
    /// key as a suggestion.
    package func object<Result>(_ body: (ManifestObjectReader) -> Result?) -> Result? {
        guard let members = value.objectMembers else { return reportWrongType(expected: "an object") }
        let reader = ManifestObjectReader(node: self, members: members)
        let result = body(reader)
        reader.reportUnknownKeys()
        return result
    }

    private func reportWrongType<Result>(expected: String) -> Result? {
        report("expected \(expected), found \(value.typeDescription)")
        return nil
    }
}
