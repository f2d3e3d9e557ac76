import Foundation

extension JSON5Value {
    /// Parses a JSON5 document from the bytes of a file, which must be UTF-8 (RFC 3629).
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - filePath: The file they came from, used only in error messages.
    /// - Throws: ``JSON5Error`` at the line and column of the first byte that is not valid
    ///   UTF-8 (naming the byte, and UTF-16 when the file starts with its byte-order mark), and
    ///   otherwise as ``init(parsing:filePath:)``.
    public init(parsing data: Data, filePath: String? = nil) throws {
        if let text = String(data: data, encoding: .utf8) {
            try self.init(parsing: text, filePath: filePath)
            return
        }
        throw Self.encodingError(in: data, filePath: filePath)
    }

    /// The error for bytes that are not UTF-8: where the first bad byte is, in lines and
    /// columns (Unicode scalars) of the valid text before it.
    static func encodingError(in data: Data, filePath: String?) -> JSON5Error {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return JSON5Error(
                filePath: filePath, location: .start,
                message: "the file is UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8")
        }
        var line = 1
        var column = 1
        var offset = 0
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return JSON5Error(filePath: filePath, location: SourceLocation(line: line, column: column), message: "not UTF-8 text")
            case .error:
                let byte = offset < bytes.count ? bytes[offset] : 0
                return JSON5Error(
                    filePath: filePath, location: SourceLocation(line: line, column: column),
                    message: "not UTF-8 text: byte 0x\(String(byte, radix: 16, uppercase: true)) at offset \(offset) "
                        + "does not start a valid UTF-8 sequence; save the manifest as UTF-8")
            }
        }
    }
}
