internal import CMatio
import Foundation
import HDF5

/// An open MATLAB MAT-file (MAT 5 or MAT 7.3), read through libmatio, or a new one being written.
///
/// The file is closed when the value is deallocated, or earlier with ``close()``. Every libmatio
/// call runs under the HDF5 module's lock (``MATLAB`` reads MAT 7.3 files through the same
/// libhdf5, which is not thread-safe), so files may be used from several threads; calls are
/// serialized.
///
/// Values come back as ``MATNumericArray``: Double values in MATLAB's column-major order with
/// their dimensions (`dimensions[0]` varies fastest).
///
/// ```swift
/// let file = try MATFile(readingFrom: url)
/// let skeleton = try file.readNumericArray(named: "d_skel")   // dimensions [20, 3, T]
/// let x = skeleton[3, 0, 10]                                    // joint 3, x, frame 10
/// ```
public final class MATFile: @unchecked Sendable {
    /// The file's location.
    public let url: URL
    /// The file's format version.
    public let version: MATFileVersion
    /// Whether the file was opened for reading (true) or created for writing (false).
    public let isReadOnly: Bool

    /// libmatio's handle; nil once closed. Touched only with the lock held.
    private var handle: OpaquePointer?

    private init(url: URL, handle: OpaquePointer, version: MATFileVersion, isReadOnly: Bool) {
        self.url = url
        self.handle = handle
        self.version = version
        self.isReadOnly = isReadOnly
    }

    /// The file's path.
    public var path: String { url.path }

    /// Opens an existing MAT 5 or MAT 7.3 file for reading.
    ///
    /// - Parameter url: A file URL.
    /// - Throws: ``MATFileError`` `.fileNotFound`, or `.cannotOpenFile` with libmatio's message for
    ///   a file that is not a MAT 5 or 7.3 file (MAT 4 files, which have no header, are refused too).
    public convenience init(readingFrom url: URL) throws {
        let location = MATLocation(filePath: url.path, variable: nil)
        let (handle, version) = try MatioLog.withLock { () throws -> (OpaquePointer, MATFileVersion) in
            guard let handle = Mat_Open(url.path, Int32(MAT_ACC_RDONLY.rawValue)) else {
                let error = location.error(.cannotOpenFile)
                if !FileManager.default.fileExists(atPath: url.path) {
                    throw MATFileError(kind: .fileNotFound, filePath: url.path, matioMessage: error.matioMessage)
                }
                throw error
            }
            switch Mat_GetVersion(handle) {
            case MAT_FT_MAT5: return (handle, .mat5)
            case MAT_FT_MAT73:
                // libmatio opens a truncated MAT 7.3 file without complaint and then finds no
                // variables in it; HDF5's own open checks the file's stored end against its size.
                // HDF5 refuses a second open of a file libmatio holds open, so check in between
                // (with HDF5's default close degree, which other threads' open MAT-files of the
                // same path do not conflict with).
                _ = Mat_Close(handle)
                do {
                    try HDF5File.checkOpens(at: url)
                } catch let error as HDF5Error {
                    throw location.error(.cannotOpenFile, message: "libhdf5: \(error.hdf5Message)")
                }
                guard let reopened = Mat_Open(url.path, Int32(MAT_ACC_RDONLY.rawValue)) else { throw location.error(.cannotOpenFile) }
                return (reopened, .mat73)
            default:
                _ = Mat_Close(handle)
                // libmatio takes any file without a MAT 5 header for MAT 4, an empty one too.
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
                if size == 0 { throw MATFileError(kind: .cannotOpenFile, filePath: url.path, matioMessage: "an empty file (0 bytes)") }
                throw location.error(
                    .cannotOpenFile, message: "no MAT 5 or MAT 7.3 header: a MAT 4 file (only MAT 5 and MAT 7.3 files are read), or not a MAT-file")
            }
        }
        self.init(url: url, handle: handle, version: version, isReadOnly: true)
    }

    /// Creates a new MAT-file for writing, replacing any file at `url`.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - version: The format to write.
    ///   - header: The 116-byte descriptive text at the start of the file (cut to that length);
    ///     a fixed text by default, so that the same variables give the same bytes.
    /// - Throws: ``MATFileError`` `.cannotCreateFile` with libmatio's message.
    public convenience init(
        creatingAt url: URL, version: MATFileVersion,
        header: String = "MATLAB MAT-file, written by ActionLab with libmatio"
    ) throws {
        let location = MATLocation(filePath: url.path, variable: nil)
        let handle = try MatioLog.withLock { () throws -> OpaquePointer in
            let format = version == .mat5 ? MAT_FT_MAT5 : MAT_FT_MAT73
            guard let handle = Mat_CreateVer(url.path, String(header.prefix(116)), format) else {
                throw location.error(.cannotCreateFile)
            }
            return handle
        }
        self.init(url: url, handle: handle, version: version, isReadOnly: false)
    }

    /// The names of the file's variables, in file order.
    /// - Throws: ``MATFileError`` `.fileClosed`, or `.readFailed` when libmatio cannot list them.
    public func variableNames() throws -> [String] {
        try MatioLog.withLock {
            let location = location(variable: nil)
            let handle = try openHandle(location)
            return try Self.variableNames(handle, location: location)
        }
    }

    /// What the file says about the variable `name`: class, dimensions, complexity.
    /// - Throws: ``MATFileError`` `.variableNotFound` (listing the variables present), `.fileClosed`.
    public func variableInfo(named name: String) throws -> MATVariableInfo {
        try MatioLog.withLock {
            let location = location(variable: name)
            let handle = try openHandle(location)
            let variable = try Self.readInfo(handle, name: name, location: location)
            defer { Mat_VarFree(variable) }
            return Self.info(of: variable, name: name)
        }
    }

    /// Reads the real numeric (or logical) variable `name` as Double values, column-major.
    ///
    /// - Parameter name: The variable's name.
    /// - Returns: Its dimensions (column-major, at least 2) and values.
    /// - Throws: ``MATFileError``: `.variableNotFound` listing the variables present;
    ///   `.notRealNumeric` for a cell, struct, char, sparse, complex or other non-numeric variable;
    ///   `.readFailed` with libmatio's message for a truncated or corrupt file; `.fileClosed`.
    public func readNumericArray(named name: String) throws -> MATNumericArray {
        try MatioLog.withLock {
            let location = location(variable: name)
            let handle = try openHandle(location)
            let header = try Self.readInfo(handle, name: name, location: location)
            let info = Self.info(of: header, name: name)
            Mat_VarFree(header)
            guard info.isRealNumeric else {
                throw location.error(.notRealNumeric(found: info.kindDescription), message: "")
            }
            _ = MatioLog.takeProblems()
            guard let variable = Mat_VarRead(handle, name) else { throw location.error(.readFailed) }
            defer { Mat_VarFree(variable) }
            try location.checkNothingLogged(.readFailed)
            let count = info.dimensions.reduce(1, *)
            guard let values = Self.doubles(of: variable.pointee, count: count) else {
                throw location.error(
                    .readFailed, message: "expected \(count) values of class \(info.className), libmatio returned \(variable.pointee.nbytes) bytes")
            }
            return MATNumericArray(dimensions: info.dimensions, values: values)
        }
    }

    /// Writes `array` as a `double` variable `name`.
    ///
    /// - Parameters:
    ///   - array: Dimensions (at least 2, column-major) and values in column-major order.
    ///   - name: The variable's name (MATLAB allows letters, digits and `_`, starting with a letter).
    ///   - compressed: zlib-compress the variable (MAT 5; MAT 7.3 uses HDF5's deflate filter).
    /// - Throws: ``MATFileError`` `.invalidShape`, `.invalidArgument` (read-only file, empty name),
    ///   `.writeFailed` with libmatio's message, `.fileClosed`.
    public func write(_ array: MATNumericArray, named name: String, compressed: Bool = false) throws {
        try MatioLog.withLock {
            let location = location(variable: name)
            let handle = try openHandle(location)
            guard !isReadOnly else { throw location.error(.invalidArgument("the file was opened for reading"), message: "") }
            guard !name.isEmpty else { throw location.error(.invalidArgument("empty variable name"), message: "") }
            guard array.dimensions.count >= 2, array.dimensions.allSatisfy({ $0 >= 0 }),
                array.dimensions.reduce(1, *) == array.values.count
            else {
                throw location.error(.invalidShape(dimensions: array.dimensions, valueCount: array.values.count), message: "")
            }
            var dimensions = array.dimensions.map { size_t($0) }
            var values = array.values
            let variable = try values.withUnsafeMutableBytes { bytes in
                // Without MAT_F_DONT_COPY_DATA libmatio copies the values; Mat_VarFree frees its copy.
                try location.check(
                    pointer: Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, Int32(dimensions.count), &dimensions, bytes.baseAddress, 0),
                    .writeFailed)
            }
            defer { Mat_VarFree(variable) }
            try location.check(
                status: Mat_VarWrite(handle, variable, compressed ? MAT_COMPRESSION_ZLIB : MAT_COMPRESSION_NONE), .writeFailed)
        }
    }

    /// Whether the file is still open.
    public var isOpen: Bool { MatioLog.withLock { handle != nil } }

    /// Closes the file; later uses throw `.fileClosed`. Calling it again does nothing.
    /// - Throws: ``MATFileError`` `.writeFailed` when libmatio reports a failure closing a written file.
    public func close() throws {
        try MatioLog.withLock {
            guard let handle else { return }
            self.handle = nil
            try location(variable: nil).check(status: Mat_Close(handle), .writeFailed)
        }
    }

    deinit {
        MatioLog.withLock {
            if let handle { _ = Mat_Close(handle) }
        }
    }

    // MARK: Lock-held helpers

    private func location(variable: String?) -> MATLocation {
        MATLocation(filePath: path, variable: variable)
    }

    private func openHandle(_ location: MATLocation) throws -> OpaquePointer {
        guard let handle else { throw location.error(.fileClosed, message: "") }
        return handle
    }

    /// The variable names (libmatio owns the returned list, so it is not freed here).
    private static func variableNames(_ handle: OpaquePointer, location: MATLocation) throws -> [String] {
        var count = 0
        guard let names = Mat_GetDir(handle, &count) else {
            guard count == 0, !MatioLog.hasProblems else { throw location.error(.readFailed) }
            return []
        }
        return (0..<count).compactMap { names[$0].map { String(cString: $0) } }
    }

    /// The header of variable `name`, owned by the caller (`Mat_VarFree`).
    private static func readInfo(_ handle: OpaquePointer, name: String, location: MATLocation) throws -> UnsafeMutablePointer<matvar_t> {
        if let variable = Mat_VarReadInfo(handle, name) { return variable }
        let message = MatioLog.takeProblems()
        let available = (try? variableNames(handle, location: location)) ?? []
        _ = MatioLog.takeProblems()
        if available.contains(name) {
            throw location.error(.readFailed, message: message)
        }
        throw location.error(.variableNotFound(available: available), message: message)
    }

    private static func info(of variable: UnsafeMutablePointer<matvar_t>, name: String) -> MATVariableInfo {
        let pointee = variable.pointee
        let rank = Int(pointee.rank)
        let dimensions = (0..<rank).map { index in pointee.dims.map { Int($0[index]) } ?? 0 }
        return MATVariableInfo(
            name: name, className: className(pointee.class_type), dimensions: dimensions,
            isComplex: pointee.isComplex != 0, isLogical: pointee.isLogical != 0)
    }

    /// MATLAB's name of a libmatio class.
    private static func className(_ type: matio_classes) -> String {
        switch type {
        case MAT_C_EMPTY: "empty"
        case MAT_C_CELL: "cell"
        case MAT_C_STRUCT: "struct"
        case MAT_C_OBJECT: "object"
        case MAT_C_CHAR: "char"
        case MAT_C_SPARSE: "sparse"
        case MAT_C_DOUBLE: "double"
        case MAT_C_SINGLE: "single"
        case MAT_C_INT8: "int8"
        case MAT_C_UINT8: "uint8"
        case MAT_C_INT16: "int16"
        case MAT_C_UINT16: "uint16"
        case MAT_C_INT32: "int32"
        case MAT_C_UINT32: "uint32"
        case MAT_C_INT64: "int64"
        case MAT_C_UINT64: "uint64"
        case MAT_C_FUNCTION: "function"
        case MAT_C_OPAQUE: "opaque"
        default: "unknown class \(type.rawValue)"
        }
    }

    /// The values of a read numeric variable as Double; nil when libmatio returned fewer bytes
    /// than `count` values of its class need. libmatio converts stored values to the class's type.
    private static func doubles(of variable: matvar_t, count: Int) -> [Double]? {
        func convert<T>(_: T.Type, _ transform: (T) -> Double) -> [Double]? {
            guard count > 0 else { return [] }
            guard let data = variable.data, variable.nbytes >= count * MemoryLayout<T>.stride else { return nil }
            let typed = data.bindMemory(to: T.self, capacity: count)
            return UnsafeBufferPointer(start: typed, count: count).map(transform)
        }
        switch variable.class_type {
        case MAT_C_DOUBLE: return convert(Double.self) { $0 }
        case MAT_C_SINGLE: return convert(Float.self) { Double($0) }
        case MAT_C_INT8: return convert(Int8.self) { Double($0) }
        case MAT_C_UINT8: return convert(UInt8.self) { Double($0) }
        case MAT_C_INT16: return convert(Int16.self) { Double($0) }
        case MAT_C_UINT16: return convert(UInt16.self) { Double($0) }
        case MAT_C_INT32: return convert(Int32.self) { Double($0) }
        case MAT_C_UINT32: return convert(UInt32.self) { Double($0) }
        case MAT_C_INT64: return convert(Int64.self) { Double($0) }
        case MAT_C_UINT64: return convert(UInt64.self) { Double($0) }
        default: return nil
        }
    }
}
