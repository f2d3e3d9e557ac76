import Foundation

/// A failed HDF5 operation: what went wrong, in which file and object, and HDF5's own explanation.
///
/// Every throwing function of this module throws `HDF5Error`. ``kind`` says what failed in terms
/// a caller can switch over; ``filePath`` and ``objectPath`` locate it; ``hdf5Message`` is the
/// library's error stack (collected with `H5Ewalk2`) condensed to one line, the API function and
/// the innermost record, empty when the failure was detected by this wrapper before calling HDF5.
public struct HDF5Error: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of operation failed.
    public enum Kind: Equatable, Sendable {
        /// The file to open does not exist.
        case fileNotFound
        /// The file exists but HDF5 could not open it (not an HDF5 file, truncated, no permission,
        /// or locked by another writer).
        case cannotOpenFile
        /// The file could not be created or truncated.
        case cannotCreateFile
        /// Closing or flushing the file failed; data may not have reached the disk.
        case cannotCloseFile
        /// The file was closed with ``HDF5File/close()`` before this use of one of its objects.
        case fileClosed
        /// No group, dataset or attribute exists at the path or name.
        case objectNotFound
        /// A group, dataset or attribute already exists where one was to be created.
        case objectExists
        /// HDF5 refused to create the group, dataset or attribute.
        case cannotCreateObject
        /// The object exists but could not be opened as the requested kind (a group opened as a
        /// dataset, for example).
        case cannotOpenObject
        /// The stored element type differs from the one requested; no conversion is attempted.
        case typeMismatch(expected: HDF5ElementType, found: HDF5ElementType)
        /// The number of values does not match the product of the shape's dimensions.
        case invalidShape(shape: [Int], valueCount: Int)
        /// An argument is out of range; the text says which and why.
        case invalidArgument(String)
        /// Reading values failed.
        case readFailed
        /// Writing values failed.
        case writeFailed
        /// Another HDF5 function failed; the associated value names it.
        case libraryCall(function: String)
    }

    /// What kind of operation failed.
    public var kind: Kind
    /// The path of the HDF5 file on disk.
    public var filePath: String
    /// The path of the object inside the file (`/sequences/000001/keypoints`), with
    /// `@name` appended for an attribute; nil when the failure concerns the whole file.
    public var objectPath: String?
    /// HDF5's own explanation in one line: the API function called and the innermost record of
    /// its error stack (`H5Dwrite(): H5FD_sec2_write(): file write failed: No space left on
    /// device (errno 28)`); empty when HDF5 was not called.
    public var hdf5Message: String

    /// Creates an error; the module creates these, callers normally only inspect them.
    public init(kind: Kind, filePath: String, objectPath: String? = nil, hdf5Message: String = "") {
        self.kind = kind
        self.filePath = filePath
        self.objectPath = objectPath
        self.hdf5Message = hdf5Message
    }

    public var description: String {
        var text = "HDF5 error: \(kind.summary) in '\(filePath)'"
        if let objectPath { text += " at '\(objectPath)'" }
        if !hdf5Message.isEmpty { text += ": \(hdf5Message)" }
        return text
    }

    public var errorDescription: String? { description }
}

extension HDF5Error.Kind {
    /// A short English phrase for messages.
    var summary: String {
        switch self {
        case .fileNotFound: "file not found"
        case .cannotOpenFile: "cannot open file"
        case .cannotCreateFile: "cannot create file"
        case .cannotCloseFile: "cannot close or flush file"
        case .fileClosed: "file already closed"
        case .objectNotFound: "no such object"
        case .objectExists: "object already exists"
        case .cannotCreateObject: "cannot create object"
        case .cannotOpenObject: "cannot open object"
        case let .typeMismatch(expected, found): "type mismatch: expected \(expected), found \(found)"
        case let .invalidShape(shape, valueCount): "shape \(shape) does not hold \(valueCount) values"
        case let .invalidArgument(reason): "invalid argument: \(reason)"
        case .readFailed: "read failed"
        case .writeFailed: "write failed"
        case let .libraryCall(function): "\(function) failed"
        }
    }
}
