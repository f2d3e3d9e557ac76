import Foundation

/// A failed MAT-file operation: what went wrong, in which file and variable, and libmatio's own message.
///
/// Every throwing function of this module throws `MATFileError`. ``kind`` says what failed in
/// terms a caller can switch over; ``filePath`` and ``variable`` locate it; ``matioMessage`` is what
/// libmatio logged while failing (captured through `Mat_LogInitFunc` instead of printed), empty
/// when the failure was detected by this wrapper.
public struct MATFileError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of operation failed.
    public enum Kind: Equatable, Sendable {
        /// The file to open does not exist.
        case fileNotFound
        /// The file exists but libmatio could not open it: not a MAT-file (or a MAT 4 file, which
        /// this module does not read), a truncated header, or no permission.
        case cannotOpenFile
        /// The file could not be created.
        case cannotCreateFile
        /// The file was closed with ``MATFile/close()`` before this use.
        case fileClosed
        /// No variable of that name is in the file; `available` lists the names that are, in file order.
        case variableNotFound(available: [String])
        /// The variable is not a real numeric array; `found` names what it is (`cell`, `struct`,
        /// `char`, `sparse`, `complex double`, ...).
        case notRealNumeric(found: String)
        /// Reading the variable's values failed, or libmatio reported a problem while reading them
        /// (a truncated or corrupt file: libmatio pads missing values with zeros and logs it).
        case readFailed
        /// Writing a variable failed.
        case writeFailed
        /// The dimensions do not describe the number of values given (or have fewer than 2 entries,
        /// the least a MATLAB array has).
        case invalidShape(dimensions: [Int], valueCount: Int)
        /// An argument is out of range; the text says which and why.
        case invalidArgument(String)
    }

    /// What kind of operation failed.
    public var kind: Kind
    /// The path of the MAT-file on disk.
    public var filePath: String
    /// The variable concerned, or nil when the failure concerns the whole file.
    public var variable: String?
    /// What libmatio logged (errors and warnings, `; `-separated), or for a MAT 7.3 file that HDF5
    /// refuses, `libhdf5: ` and HDF5's error stack; empty when the library was not called or said nothing.
    public var matioMessage: String

    /// Creates an error; the module creates these, callers normally only inspect them.
    public init(kind: Kind, filePath: String, variable: String? = nil, matioMessage: String = "") {
        self.kind = kind
        self.filePath = filePath
        self.variable = variable
        self.matioMessage = matioMessage
    }

    public var description: String {
        var text = "MAT-file error: \(kind.summary) in '\(filePath)'"
        if let variable { text += ", variable '\(variable)'" }
        if !matioMessage.isEmpty { text += ": \(matioMessage.hasPrefix("libhdf5: ") ? "" : "libmatio: ")\(matioMessage)" }
        return text
    }

    public var errorDescription: String? { description }
}

extension MATFileError.Kind {
    /// A short English phrase for messages.
    var summary: String {
        switch self {
        case .fileNotFound: "file not found"
        case .cannotOpenFile: "cannot open file (not a MAT 5 or MAT 7.3 file, or truncated)"
        case .cannotCreateFile: "cannot create file"
        case .fileClosed: "file already closed"
        case let .variableNotFound(available):
            available.isEmpty
                ? "no such variable (the file holds none)"
                : "no such variable (the file holds \(available.map { "'\($0)'" }.joined(separator: ", ")))"
        case let .notRealNumeric(found): "expected a real numeric array, found \(found)"
        case .readFailed: "reading the values failed (truncated or corrupt file)"
        case .writeFailed: "write failed"
        case let .invalidShape(dimensions, valueCount): "dimensions \(dimensions) do not hold \(valueCount) values"
        case let .invalidArgument(reason): "invalid argument: \(reason)"
        }
    }
}
