internal import CHDF5

/// An open HDF5 group: a folder of named groups and datasets, with attributes.
///
/// Paths passed to a group's methods are relative to it (`"a/b"`) or absolute from the file's
/// root (`"/a/b"`). A group keeps its ``file`` alive; after ``HDF5File/close()`` every method
/// throws ``HDF5Error/Kind-swift.enum/fileClosed``. Safe to use from several threads.
public final class HDF5Group: HDF5Object, Sendable {
    /// The file the group belongs to.
    public let file: HDF5File
    let objectID: hid_t
    let location: HDF5Location

    init(file: HDF5File, id: hid_t, location: HDF5Location) {
        self.file = file
        self.objectID = id
        self.location = location
    }

    deinit {
        HDF5Lock.withLock {
            // After HDF5File.close() (strong close degree) the identifier is already closed.
            if file.isOpenLocked { _ = H5Gclose(objectID) }
        }
    }

    /// The group's absolute path inside the file, `/` for the root group.
    public var path: String { location.objectPath ?? "/" }

    /// The group's attributes.
    public var attributes: HDF5Attributes { HDF5Attributes(owner: self) }

    /// Creates a group, and any missing groups above it (`"a/b/c"` creates `a` and `a/b`).
    /// - Parameter path: relative or absolute path of the new group.
    /// - Returns: the new group.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/objectExists`` if something
    ///   already exists at `path`, ``HDF5Error/Kind-swift.enum/cannotCreateObject`` with HDF5's
    ///   message otherwise (read-only file, a dataset in the way).
    @discardableResult
    public func createGroup(_ path: String) throws -> HDF5Group {
        try withObjectID { id in
            let target = location.appending(path)
            if try containsLocked(id, path) { throw target.error(.objectExists, message: "") }
            let linkList = try Self.makeLinkCreationList(at: target)
            defer { _ = H5Pclose(linkList) }
            let creationList = try Self.makeCreationList(actionlab_H5P_GROUP_CREATE(), at: target)
            defer { _ = H5Pclose(creationList) }
            let groupID = H5Gcreate2(id, path, linkList, creationList, actionlab_H5P_DEFAULT())
            try target.check(id: groupID, .cannotCreateObject)
            return HDF5Group(file: file, id: groupID, location: target)
        }
    }

    /// Opens an existing group.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/objectNotFound`` if nothing
    ///   exists at `path`, ``HDF5Error/Kind-swift.enum/cannotOpenObject`` if it is not a group.
    public func openGroup(_ path: String) throws -> HDF5Group {
        try withObjectID { id in
            let target = location.appending(path)
            guard try containsLocked(id, path) else { throw target.error(.objectNotFound, message: "") }
            let groupID = try target.check(id: H5Gopen2(id, path, actionlab_H5P_DEFAULT()), .cannotOpenObject)
            return HDF5Group(file: file, id: groupID, location: target)
        }
    }

    /// The names of the group's direct children (groups, datasets, links), sorted ascending.
    /// - Throws: ``HDF5Error`` if HDF5 cannot list the group.
    public func childNames() throws -> [String] {
        try withObjectID { id in
            var info = H5G_info_t()
            try location.check(status: H5Gget_info(id, &info), .libraryCall(function: "H5Gget_info"))
            var names: [String] = []
            names.reserveCapacity(Int(info.nlinks))
            for index in 0..<info.nlinks {
                let length = H5Lget_name_by_idx(
                    id, ".", H5_INDEX_NAME, H5_ITER_INC, index, nil, 0, actionlab_H5P_DEFAULT())
                guard length >= 0 else { throw location.error(.libraryCall(function: "H5Lget_name_by_idx")) }
                var buffer = [CChar](repeating: 0, count: Int(length) + 1)
                guard
                    H5Lget_name_by_idx(
                        id, ".", H5_INDEX_NAME, H5_ITER_INC, index, &buffer, buffer.count, actionlab_H5P_DEFAULT()) >= 0
                else { throw location.error(.libraryCall(function: "H5Lget_name_by_idx")) }
                names.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return names.sorted()
        }
    }

    /// Whether a group or dataset exists at `path` (relative or absolute).
    ///
    /// Missing intermediate groups, a path through a dataset and a dangling link all give
    /// `false`; `""` and `"."` name this group and give `true`.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/fileClosed`` after the file
    ///   was closed.
    public func contains(_ path: String) throws -> Bool {
        try withObjectID { id in try containsLocked(id, path) }
    }

    /// ``contains(_:)`` with the lock held: checks each link on the way, then the object.
    private func containsLocked(_ id: hid_t, _ path: String) throws -> Bool {
        let components = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !components.isEmpty else { return true }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in components {
            prefix += "/" + component
            let exists = H5Lexists(id, prefix, actionlab_H5P_DEFAULT())
            guard exists > 0 else {
                // Negative: a component on the way is not a group; that is "not contained".
                if exists < 0 { HDF5ErrorStack.clear() }
                return false
            }
        }
        let resolves = H5Oexists_by_name(id, prefix, actionlab_H5P_DEFAULT())
        if resolves < 0 { HDF5ErrorStack.clear() }
        return resolves > 0
    }

    /// Creates a numeric dataset holding `values` with the given shape.
    ///
    /// The dataset's element type is `T`'s (`Float` → float32, `Double` → float64,
    /// `Int64` → int64), stored little- or big-endian as the machine is; readers convert.
    /// - Parameters:
    ///   - path: relative or absolute path; missing groups above it are created.
    ///   - values: the values in row-major order (last dimension fastest).
    ///   - shape: dimension lengths, outermost first; `[]` makes a scalar (one value). Zero
    ///     lengths are allowed (`[0, 3, 18]`).
    ///   - compression: gzip settings, or nil to store contiguously without compression.
    ///     Ignored for scalars and for datasets with a zero-length dimension, which cannot be
    ///     chunked.
    ///   - checksummed: Stores the values in chunks, each with HDF5's Fletcher-32 checksum
    ///     (`H5Pset_fletcher32`), after compression when there is any. Every reader (this one,
    ///     h5py, `h5dump`) verifies a chunk as it reads it, so a changed byte fails the read
    ///     (``HDF5Error/Kind-swift.enum/readFailed``) instead of giving another value. Ignored,
    ///     like compression, for scalars and zero-length datasets.
    /// - Returns: the new dataset.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/invalidShape(shape:valueCount:)``
    ///   if `values.count` is not the product of `shape`,
    ///   ``HDF5Error/Kind-swift.enum/invalidArgument(_:)`` for a bad deflate level or chunk shape,
    ///   ``HDF5Error/Kind-swift.enum/objectExists`` if `path` is taken,
    ///   ``HDF5Error/Kind-swift.enum/cannotCreateObject`` or
    ///   ``HDF5Error/Kind-swift.enum/writeFailed`` with HDF5's message.
    @discardableResult
    public func createDataset<T: HDF5Element>(
        _ path: String, values: [T], shape: [Int], compression: HDF5Compression? = nil, checksummed: Bool = false
    ) throws -> HDF5Dataset {
        try withObjectID { id in
            let target = location.appending(path)
            let memoryType = try T.nativeTypeID(at: target)
            try HDF5ValueIO.validate(shape: shape, count: values.count, at: target)
            let creationList = try Self.makeDatasetCreationList(
                shape: shape, elementSize: MemoryLayout<T>.stride, compression: compression, checksummed: checksummed,
                at: target)
            defer { _ = H5Pclose(creationList) }
            let dataset = try createDatasetLocked(
                id, path, fileType: memoryType, shape: shape, creationList: creationList, at: target)
            if !values.isEmpty {
                let status = values.withUnsafeBytes { buffer in
                    H5Dwrite(
                        dataset.objectID, memoryType, actionlab_H5S_ALL(), actionlab_H5S_ALL(), actionlab_H5P_DEFAULT(),
                        buffer.baseAddress)
                }
                try target.check(status: status, .writeFailed)
            }
            return dataset
        }
    }

    /// Creates a one-dimensional dataset of variable-length UTF-8 strings (a label list, say).
    ///
    /// h5py reads it as an array of `bytes` objects (`.asstr()` decodes them).
    /// - Parameters:
    ///   - path: relative or absolute path; missing groups above it are created.
    ///   - strings: the values, shape `[strings.count]`; each is cut at its first NUL character.
    /// - Returns: the new dataset.
    /// - Throws: ``HDF5Error`` as ``createDataset(_:values:shape:compression:)`` does.
    @discardableResult
    public func createDataset(_ path: String, strings: [String]) throws -> HDF5Dataset {
        try withObjectID { id in
            let target = location.appending(path)
            let stringType = try HDF5ValueIO.makeVariableStringType(at: target)
            defer { _ = H5Tclose(stringType) }
            let dataset = try createDatasetLocked(
                id, path, fileType: stringType, shape: [strings.count], creationList: actionlab_H5P_DEFAULT(),
                at: target)
            if !strings.isEmpty {
                let status = try HDF5ValueIO.withCStringArray(strings, at: target) { buffer in
                    H5Dwrite(
                        dataset.objectID, stringType, actionlab_H5S_ALL(), actionlab_H5S_ALL(), actionlab_H5P_DEFAULT(),
                        buffer)
                }
                try target.check(status: status, .writeFailed)
            }
            return dataset
        }
    }

    /// Opens an existing dataset.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/objectNotFound`` if nothing
    ///   exists at `path`, ``HDF5Error/Kind-swift.enum/cannotOpenObject`` if it is not a dataset.
    public func openDataset(_ path: String) throws -> HDF5Dataset {
        try withObjectID { id in
            let target = location.appending(path)
            guard try containsLocked(id, path) else { throw target.error(.objectNotFound, message: "") }
            let datasetID = try target.check(id: H5Dopen2(id, path, actionlab_H5P_DEFAULT()), .cannotOpenObject)
            return HDF5Dataset(file: file, id: datasetID, location: target)
        }
    }

    /// Creates the dataset object (without writing values). Lock held.
    private func createDatasetLocked(
        _ id: hid_t, _ path: String, fileType: hid_t, shape: [Int], creationList: hid_t, at target: HDF5Location
    ) throws -> HDF5Dataset {
        if try containsLocked(id, path) { throw target.error(.objectExists, message: "") }
        let space = try HDF5ValueIO.makeSpace(shape: shape, at: target)
        defer { _ = H5Sclose(space) }
        let linkList = try Self.makeLinkCreationList(at: target)
        defer { _ = H5Pclose(linkList) }
        let datasetID = H5Dcreate2(id, path, fileType, space, linkList, creationList, actionlab_H5P_DEFAULT())
        try target.check(id: datasetID, .cannotCreateObject)
        return HDF5Dataset(file: file, id: datasetID, location: target)
    }

    /// A link-creation list that creates missing intermediate groups and UTF-8 link names.
    private static func makeLinkCreationList(at target: HDF5Location) throws -> hid_t {
        let list = try target.check(id: H5Pcreate(actionlab_H5P_LINK_CREATE()), .libraryCall(function: "H5Pcreate"))
        guard H5Pset_create_intermediate_group(list, 1) >= 0, H5Pset_char_encoding(list, H5T_CSET_UTF8) >= 0 else {
            let error = target.error(.libraryCall(function: "H5Pset_create_intermediate_group"))
            _ = H5Pclose(list)
            throw error
        }
        return list
    }

    /// An object-creation list of `listClass` that does not record modification times, so that
    /// writing the same content twice gives byte-identical files (HDF5 stamps every object
    /// header with the time otherwise; `H5Pset_obj_track_times`).
    private static func makeCreationList(_ listClass: hid_t, at target: HDF5Location) throws -> hid_t {
        let list = try target.check(id: H5Pcreate(listClass), .libraryCall(function: "H5Pcreate"))
        guard H5Pset_obj_track_times(list, false) >= 0 else {
            let error = target.error(.libraryCall(function: "H5Pset_obj_track_times"))
            _ = H5Pclose(list)
            throw error
        }
        return list
    }

    /// A dataset-creation list without time stamps: contiguous without compression or checksum,
    /// else chunked, with deflate when compressed and Fletcher-32 (after deflate) when checksummed.
    private static func makeDatasetCreationList(
        shape: [Int], elementSize: Int, compression: HDF5Compression?, checksummed: Bool, at target: HDF5Location
    ) throws -> hid_t {
        let list = try makeCreationList(actionlab_H5P_DATASET_CREATE(), at: target)
        guard compression != nil || checksummed, !shape.isEmpty, !shape.contains(0) else { return list }
        do {
            if let compression, !(0...9).contains(compression.deflateLevel) {
                throw target.error(
                    .invalidArgument("deflate level \(compression.deflateLevel) is outside 0...9"), message: "")
            }
            let chunk = compression?.chunkShape ?? HDF5Compression.automaticChunkShape(for: shape, elementSize: elementSize)
            guard chunk.count == shape.count, zip(chunk, shape).allSatisfy({ $0 >= 1 && $0 <= $1 }) else {
                throw target.error(
                    .invalidArgument("chunk shape \(chunk) does not fit dataset shape \(shape)"), message: "")
            }
            let chunkDims = chunk.map { hsize_t($0) }
            try target.check(status: H5Pset_chunk(list, Int32(chunkDims.count), chunkDims), .libraryCall(function: "H5Pset_chunk"))
            if let compression {
                try target.check(
                    status: H5Pset_deflate(list, UInt32(compression.deflateLevel)), .libraryCall(function: "H5Pset_deflate"))
            }
            if checksummed {
                try target.check(status: H5Pset_fletcher32(list), .libraryCall(function: "H5Pset_fletcher32"))
            }
            return list
        } catch {
            _ = H5Pclose(list)
            throw error
        }
    }
}
