import AtomicFiles
import Foundation

/// A value of a parsed JSON file with its JSON path, for importers that report exactly where a
/// value of the wrong type or size sits (`$.people[0].pose_keypoints_2d`).
struct JSONCursor {
    /// The value as `JSONSerialization` returns it.
    let value: Any
    /// The JSONPath of the value, `$` for the root.
    let path: String
    /// The file, for errors.
    let file: String

    /// Parses the JSON file at `url`.
    /// - Throws: ``ImportError`` `.unreadable` or `.invalidJSON` naming the file.
    static func parse(contentsOf url: URL) throws -> JSONCursor {
        try parse(contents(of: url), file: url.path)
    }

    /// The bytes of the file at `url`.
    /// - Throws: ``ImportError`` `.unreadable` naming the file.
    static func contents(of url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ImportError(path: url.path, line: nil, kind: .unreadable(reason: FileErrorReason.of(error)))
        }
    }

    /// Parses `data`, the bytes of the JSON file `file`.
    /// - Throws: ``ImportError`` `.invalidJSON` naming the file, line and column.
    static func parse(_ data: Data, file: String) throws -> JSONCursor {
        do {
            return JSONCursor(value: try JSONSerialization.jsonObject(with: data), path: "$", file: file)
        } catch {
            let syntax = JSONSyntaxError(error, in: data)
            throw ImportError(path: file, line: syntax.line, kind: .invalidJSON(reason: syntax.reason))
        }
    }

    /// An error about this value: it should have been `expected`.
    func mismatch(_ expected: String) -> ImportError {
        ImportError(path: file, line: nil, kind: .unexpectedJSON(jsonPath: path, expected: expected, found: Self.describe(value)))
    }

    /// The member `key` of this object, or nil when absent (or `null`).
    /// - Throws: ``ImportError`` `.unexpectedJSON` unless this is an object.
    func member(_ key: String) throws -> JSONCursor? {
        guard let object = value as? [String: Any] else { throw mismatch("an object") }
        guard let member = object[key], !(member is NSNull) else { return nil }
        return JSONCursor(value: member, path: "\(path).\(key)", file: file)
    }

    /// The member `key` of this object.
    /// - Throws: ``ImportError`` `.unexpectedJSON` unless this is an object with that member.
    func required(_ key: String, _ expected: String) throws -> JSONCursor {
        guard let member = try member(key) else {
            throw ImportError(path: file, line: nil, kind: .unexpectedJSON(jsonPath: "\(path).\(key)", expected: expected, found: "nothing"))
        }
        return member
    }

    /// The elements of this array.
    /// - Throws: ``ImportError`` `.unexpectedJSON` unless this is an array.
    func elements() throws -> [JSONCursor] {
        guard let array = value as? [Any] else { throw mismatch("an array") }
        return array.enumerated().map { JSONCursor(value: $1, path: "\(path)[\($0)]", file: file) }
    }

    /// This value as a finite number.
    /// - Throws: ``ImportError`` `.unexpectedJSON` unless it is one.
    func number() throws -> Double {
        guard let number = value as? NSNumber, !Self.isBoolean(number), number.doubleValue.isFinite else { throw mismatch("a finite number") }
        return number.doubleValue
    }

    /// This value as an array of finite numbers.
    /// - Throws: ``ImportError`` `.unexpectedJSON` naming the first element that is not one.
    func numbers() throws -> [Double] {
        try elements().map { try $0.number() }
    }

    /// This value as a string.
    /// - Throws: ``ImportError`` `.unexpectedJSON` unless it is one.
    func string() throws -> String {
        guard let string = value as? String else { throw mismatch("a string") }
        return string
    }

    /// Whether `JSONSerialization` made `number` from `true` or `false` (Objective-C type `c`).
    /// `is Bool` cannot tell: on Linux it also holds for the numbers 0 and 1.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A short description of a value's type for messages: `a string`, `an array of 3`, `the number 2`.
    static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let string as String: return "the string '\(string.prefix(40))'"
        case let array as [Any]: return "an array of \(array.count)"
        case is [String: Any]: return "an object"
        case let number as NSNumber: return "the number \(number)"
        default: return "\(type(of: value))"
        }
    }
}
