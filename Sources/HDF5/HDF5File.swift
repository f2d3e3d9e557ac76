internal import CHDF5
import Foundation

/// An open HDF5 file: the owner of its HDF5 file identifier.
///
/// Create one with ``create(at:mode:)`` or ``open(at:mode:)`` and reach its contents through
/// ``root()``. ``close()`` releases the file early and is safe to call more than once; `deinit`
/// closes it otherwise. The file is opened with HDF5's strong close degree, so `close()` also
/// closes every group and dataset opened from it: using one afterwards throws
/// ``HDF5Error/Kind-swift.enum/fileClosed``, and when `close()` returns the bytes are on disk
/// (as far as `close(2)` goes) and the file may be renamed or read by another process.
///
/// All methods may be called from any thread: every HDF5 call is serialized by one global lock.
///
/// `@unchecked Sendable`: the only mutable property, `fileID`, is read and written only with
/// ``HDF5Lock`` held, as is every HDF5 call made with it.
public final class HDF5File: @unchecked Sendable {
    /// What to do when the file to create already exists.
    public enum CreationMode: Sendable {
        /// Replace its contents (`H5F_ACC_TRUNC`).
        case truncate
        /// Fail with ``HDF5Error/Kind-swift.enum/cannotCreateFile`` (`H5F_ACC_EXCL`).
        case failIfExists
    }

    /// How to open an existing file.
    public enum AccessMode: Sendable {
        /// Reading only (`H5F_ACC_RDONLY`); any write throws.
        case readOnly
        /// Reading and writing (`H5F_ACC_RDWR`).
        case readWrite
    }

    /// The file's location on disk.
    public let url: URL
    /// Whether the file was opened with ``AccessMode/readOnly``.
    public let isReadOnly: Bool

    /// The HDF5 file identifier, or nil once closed. Guarded by ``HDF5Lock``.
    private var fileID: hid_t?

    private init(url: URL, fileID: hid_t, isReadOnly: Bool) {
        self.url = url
        self.fileID = fileID
        self.isReadOnly = isReadOnly
    }

    /// The file's path on disk, as used in error messages.
    public var path: String { url.path }

    /// Creates a new HDF5 file, or truncates an existing one.
    /// - Parameters:
    ///   - url: a file URL; its directory must exist.
    ///   - mode: whether an existing file is truncated or is an error.
    /// - Returns: the file, open for reading and writing.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/cannotCreateFile`` with HDF5's
    ///   message when the file cannot be created (missing directory, no permission, exists with
    ///   `.failIfExists`).
    public static func create(at url: URL, mode: CreationMode = .truncate) throws -> HDF5File {
        try HDF5Lock.withLock {
            let location = HDF5Location(filePath: url.path, objectPath: nil)
            let accessList = try makeAccessList(location)
            defer { _ = H5Pclose(accessList) }
            let flags = mode == .truncate ? actionlab_H5F_ACC_TRUNC() : actionlab_H5F_ACC_EXCL()
            let id = H5Fcreate(url.path, flags, actionlab_H5P_DEFAULT(), accessList)
            try location.check(id: id, .cannotCreateFile)
            return HDF5File(url: url, fileID: id, isReadOnly: false)
        }
    }

    /// Creates a new HDF5 file that lives in memory only, for writing a whole file and then
    /// putting its bytes on disk with ordinary `write(2)` calls.
    ///
    /// The file uses HDF5's core driver without a backing store (`H5Pset_fapl_core`), so HDF5
    /// itself never writes to disk: a full disk fails the caller's own write of ``image()``
    /// with `ENOSPC`, and a failed write can never leave HDF5 holding a half-flushed file (with
    /// libhdf5 1.10.8 a file whose `H5Fclose` failed on a full disk crashed the process at exit).
    /// With `userBlockSize` > 0 the file reserves a user block (`H5Pset_userblock`) of that many
    /// bytes before its superblock; ``image()`` leaves it out, for the caller to fill.
    /// - Parameters:
    ///   - name: The name HDF5 uses for the file in messages and for telling open files apart;
    ///     must differ from every other open file's (use the path the image will be written to).
    ///   - userBlockSize: 0, or a power of two of at least 512 bytes (the HDF5 format's rule).
    ///   - increment: Bytes the image grows by when it fills (the core driver's `increment`; each
    ///     growth is zeroed and may copy the image): about the expected size of the file, so that a
    ///     small file does not pay for zeroing 1 MiB and a large one is not copied many times.
    /// - Returns: The file, open for reading and writing.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/invalidArgument(_:)`` for a bad
    ///   user-block size or an increment below 1 byte, ``HDF5Error/Kind-swift.enum/cannotCreateFile``
    ///   with HDF5's message.
    public static func createInMemory(name: String, userBlockSize: Int = 0, increment: Int = 1 << 20) throws -> HDF5File {
        let location = HDF5Location(filePath: name, objectPath: nil)
        guard userBlockSize == 0 || (userBlockSize >= 512 && userBlockSize & (userBlockSize - 1) == 0) else {
            throw location.error(.invalidArgument("user block size \(userBlockSize) is not 0 or a power of two >= 512"), message: "")
        }
        guard increment >= 1 else { throw location.error(.invalidArgument("increment \(increment) is not a positive number of bytes"), message: "") }
        return try HDF5Lock.withLock {
            let accessList = try makeAccessList(location)
            defer { _ = H5Pclose(accessList) }
            try location.check(status: H5Pset_fapl_core(accessList, increment, false), .libraryCall(function: "H5Pset_fapl_core"))
            let creationList = try location.check(
                id: H5Pcreate(actionlab_H5P_FILE_CREATE()), .libraryCall(function: "H5Pcreate"))
            defer { _ = H5Pclose(creationList) }
            if userBlockSize > 0 {
                try location.check(
                    status: H5Pset_userblock(creationList, hsize_t(userBlockSize)), .libraryCall(function: "H5Pset_userblock"))
            }
            let id = H5Fcreate(name, actionlab_H5F_ACC_EXCL(), creationList, accessList)
            try location.check(id: id, .cannotCreateFile)
            return HDF5File(url: URL(fileURLWithPath: name), fileID: id, isReadOnly: false)
        }
    }

    /// The file's bytes as they would be stored on disk from its superblock on, without any user
    /// block (`H5Fflush` then `H5Fget_file_image`); for a file made by ``createInMemory(name:userBlockSize:)``.
    /// - Returns: The image; written after a user block of the size the file was created with,
    ///   it is a complete HDF5 file.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/fileClosed`` after ``close()``,
    ///   ``HDF5Error/Kind-swift.enum/libraryCall(function:)`` naming the HDF5 function that failed.
    public func image() throws -> Data {
        try HDF5Lock.withLock {
            let location = self.location
            let id = try openID(for: location)
            try location.check(status: H5Fflush(id, H5F_SCOPE_LOCAL), .cannotCloseFile)
            let size = H5Fget_file_image(id, nil, 0)
            guard size >= 0 else { throw location.error(.libraryCall(function: "H5Fget_file_image")) }
            var image = Data(count: size)
            let copied = image.withUnsafeMutableBytes { H5Fget_file_image(id, $0.baseAddress, size) }
            guard copied == size else { throw location.error(.libraryCall(function: "H5Fget_file_image")) }
            return image
        }
    }

    /// Opens an existing HDF5 file.
    /// - Parameters:
    ///   - url: a file URL.
    ///   - mode: read-only (the default) or read-write.
    /// - Returns: the open file.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/fileNotFound`` when nothing
    ///   exists at `url`, else ``HDF5Error/Kind-swift.enum/cannotOpenFile`` (not HDF5, truncated,
    ///   unreadable); both carry the path and HDF5's message.
    public static func open(at url: URL, mode: AccessMode = .readOnly) throws -> HDF5File {
        try HDF5Lock.withLock {
            let location = HDF5Location(filePath: url.path, objectPath: nil)
            let accessList = try makeAccessList(location)
            defer { _ = H5Pclose(accessList) }
            let flags = mode == .readOnly ? actionlab_H5F_ACC_RDONLY() : actionlab_H5F_ACC_RDWR()
            let id = H5Fopen(url.path, flags, accessList)
            guard id >= 0 else {
                let error = location.error(.cannotOpenFile)
                if !FileManager.default.fileExists(atPath: url.path) {
                    throw HDF5Error(kind: .fileNotFound, filePath: error.filePath, hdf5Message: error.hdf5Message)
                }
                throw error
            }
            return HDF5File(url: url, fileID: id, isReadOnly: mode == .readOnly)
        }
    }

    /// Checks that HDF5 opens the file (it is HDF5, and its stored end of file is within its
    /// size, so it is not truncated), then closes it.
    ///
    /// Unlike ``open(at:mode:)``, this uses HDF5's default close degree, which HDF5 accepts while
    /// another library in the process (libmatio reading a MAT 7.3 file) holds the same file open
    /// with its own degree; a strong-degree open would be refused then ("file close degree
    /// doesn't match").
    /// - Throws: ``HDF5Error`` as ``open(at:mode:)``.
    public static func checkOpens(at url: URL) throws {
        try HDF5Lock.withLock {
            let location = HDF5Location(filePath: url.path, objectPath: nil)
            let accessList = try makeAccessList(location, closeDegree: H5F_CLOSE_DEFAULT)
            defer { _ = H5Pclose(accessList) }
            let id = H5Fopen(url.path, actionlab_H5F_ACC_RDONLY(), accessList)
            guard id >= 0 else {
                let error = location.error(.cannotOpenFile)
                if !FileManager.default.fileExists(atPath: url.path) {
                    throw HDF5Error(kind: .fileNotFound, filePath: error.filePath, hdf5Message: error.hdf5Message)
                }
                throw error
            }
            try location.check(status: H5Fclose(id), .cannotCloseFile)
        }
    }

    /// A file-access property list with the strong close degree (closing the file closes all
    /// of its objects), or `closeDegree`, and without HDF5's `flock(2)` file locking. The caller
    /// closes it.
    ///
    /// With HDF5's locking, opening a file failed at random with EAGAIN ("unable to lock file")
    /// while other threads opened, wrote and closed their own files and spawned processes
    /// (`HDF5ConcurrencyTests` failed in about one run in four of the HDF5, MATLAB and cache
    /// suites together). The lock guards against a writer changing a file another process
    /// reads, which ActionLab never does: every file is written under a temporary name and
    /// renamed into place (AtomicFiles).
    private static func makeAccessList(_ location: HDF5Location, closeDegree: H5F_close_degree_t = H5F_CLOSE_STRONG) throws -> hid_t {
        let list = try location.check(id: H5Pcreate(actionlab_H5P_FILE_ACCESS()), .libraryCall(function: "H5Pcreate"))
        guard H5Pset_fclose_degree(list, closeDegree) >= 0 else {
            let error = location.error(.libraryCall(function: "H5Pset_fclose_degree"))
            _ = H5Pclose(list)
            throw error
        }
        guard H5Pset_file_locking(list, false, true) >= 0 else {
            let error = location.error(.libraryCall(function: "H5Pset_file_locking"))
            _ = H5Pclose(list)
            throw error
        }
        return list
    }

    /// Whether the file is still open.
    public var isOpen: Bool {
        HDF5Lock.withLock { fileID != nil }
    }

    /// Closes the file and every object opened from it; does nothing if already closed.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/cannotCloseFile`` if HDF5
    ///   fails to write out cached data; the file counts as closed either way.
    public func close() throws {
        try HDF5Lock.withLock {
            guard let id = fileID else { return }
            fileID = nil
            try location.check(status: H5Fclose(id), .cannotCloseFile)
        }
    }

    /// Writes HDF5's cached data for this file to the operating system (`H5Fflush`).
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/fileClosed`` or
    ///   ``HDF5Error/Kind-swift.enum/cannotCloseFile``.
    public func flush() throws {
        try HDF5Lock.withLock {
            let id = try openID(for: location)
            try location.check(status: H5Fflush(id, H5F_SCOPE_LOCAL), .cannotCloseFile)
        }
    }

    /// Opens the root group `/`, where every path in the file starts.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/fileClosed`` after ``close()``.
    public func root() throws -> HDF5Group {
        try HDF5Lock.withLock {
            let rootLocation = HDF5Location(filePath: path, objectPath: "/")
            let id = try openID(for: rootLocation)
            let groupID = try rootLocation.check(id: H5Gopen2(id, "/", actionlab_H5P_DEFAULT()), .cannotOpenObject)
            return HDF5Group(file: self, id: groupID, location: rootLocation)
        }
    }

    /// The file-level location used in errors.
    var location: HDF5Location { HDF5Location(filePath: path, objectPath: nil) }

    /// The open file identifier, or a ``HDF5Error/Kind-swift.enum/fileClosed`` error at
    /// `location`. Call with ``HDF5Lock`` held.
    func openID(for location: HDF5Location) throws -> hid_t {
        guard let fileID else { throw location.error(.fileClosed, message: "") }
        return fileID
    }

    /// Whether the file is open. Call with ``HDF5Lock`` held.
    var isOpenLocked: Bool { fileID != nil }

    deinit {
        HDF5Lock.withLock {
            if let fileID { _ = H5Fclose(fileID) }
        }
    }
}
