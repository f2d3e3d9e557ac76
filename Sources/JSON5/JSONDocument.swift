import Foundation

/// Decodes the JSON files ActionLab writes (`config.json`, `sweep.json`, an ensemble's
/// `ensemble.json`, ...) with Foundation's `JSONDecoder`, and explains a failure by the place in
/// the file: the line and column, the JSON path, and what was wrong there.
///
/// Foundation's own errors name a coding path at best, and for a file cut short or overwritten
/// only "The given data was not valid JSON". Such a file is parsed again with ``JSON5Value``'s
/// parser (JSON is a subset of JSON5, RFC 8259 and https://spec.json5.org/), whose nodes carry
/// their source locations.
public enum JSONDocument {
    /// Decodes `data` as `Value`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The file's bytes (UTF-8 JSON).
    ///   - filePath: The file they came from, used only in the error; callers whose own errors
    ///     name the file pass nil.
    /// - Returns: The decoded value.
    /// - Throws: ``JSON5Error`` at the line and column of a syntax error (bytes that are not
    ///   UTF-8 or not JSON, a file that ends early), or of the value where decoding failed, the
    ///   message naming its JSON path (`at configuration.windows.size: ...`) and what was
    ///   expected: a missing key, a value of another type, a `null`, a value out of range.
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, filePath: String? = nil) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw diagnose(error, in: data, filePath: filePath)
        }
    }

    /// The located error for a `DecodingError` of `data`.
    static func diagnose(_ error: DecodingError, in data: Data, filePath: String?) -> JSON5Error {
        let document: JSON5Value
        do {
            document = try JSON5Value(parsing: data, filePath: filePath)
        } catch let syntax as JSON5Error {
            return syntax
        } catch {
            return JSON5Error(filePath: filePath, location: .start, message: "\(error)")
        }
        let context: DecodingError.Context
        var message: String
        switch error {
        case let .keyNotFound(key, keyContext):
            context = keyContext
            message = "missing key '\(key.stringValue)'"
        case let .typeMismatch(expected, mismatchContext):
            context = mismatchContext
            message = "expected \(describe(expected))"
        case let .valueNotFound(expected, notFoundContext):
            context = notFoundContext
            message = "expected \(describe(expected)), found null"
        case let .dataCorrupted(corruptedContext):
            context = corruptedContext
            message = corruptedContext.debugDescription
            if corruptedContext.codingPath.isEmpty {
                // Linux Foundation refuses a number that does not fit its type (7.5 for an Int,
                // 1e400) as "not valid JSON" with no path; the text itself parsed above.
                message += " The text parses, so a value does not fit its type: a fraction where a whole number belongs, "
                    + "a number out of range, or JSON5 that JSON does not allow (a comment, NaN, a trailing comma)"
            }
        @unknown default:
            return JSON5Error(filePath: filePath, location: .start, message: "\(error)")
        }
        // Walk the coding path as far as the document goes; a missing key points at its object.
        var node = document
        var path = JSONPath.root
        for key in context.codingPath {
            if let index = key.intValue, let elements = node.arrayValue, elements.indices.contains(index) {
                node = elements[index]
                path = path.appending(index: index)
            } else if let member = node[key.stringValue] {
                node = member
                path = path.appending(key: key.stringValue)
            } else {
                break
            }
        }
        if case .typeMismatch = error { message += ", found \(node.typeDescription)" }
        let place = path.components.isEmpty ? "at the top level" : "at \(path)"
        return JSON5Error(filePath: filePath, location: node.location, message: "\(place): \(message)")
    }

    /// A Swift type as a JSON reader would name it.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt64.Type, is UInt32.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        default:
            "\(type)".hasPrefix("Array") ? "an array" : "\(type)".hasPrefix("Dictionary") ? "an object" : "a value of type \(type)"
        }
    }
}
