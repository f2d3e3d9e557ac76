internal import CHDF5

/// An open HDF5 dataset: an N-dimensional array of one element type, with attributes.
///
/// Read with ``read(_:)`` (numbers) or ``readStrings()``. Reading never converts between element
/// types: a float64 dataset read as `Float` throws
/// ``HDF5Error/Kind-swift.enum/typeMismatch(expected:found:)``. A dataset keeps its ``file``
/// alive; after ``HDF5File/close()`` every method throws ``HDF5Error/Kind-swift.enum/fileClosed``.
/// Safe to use from several threads.
public final class HDF5Dataset: HDF5Object, Sendable {
    /// The file the dataset belongs to.
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
            if file.isOpenLocked { _ = H5Dclose(objectID) }
        }
    }

    /// The dataset's absolute path inside the file.
    public var path: String { location.objectPath ?? "/" }

    /// The dataset's attributes.
    public var attributes: HDF5Attributes { HDF5Attributes(owner: self) }

    /// The dataset's dimensions, outermost first; `[]` for a scalar.
    /// - Throws: ``HDF5Error`` if the file is closed or HDF5 cannot read the dataspace.
    public func shape() throws -> [Int] {
        try withObjectID { id in
            let space = try location.check(id: H5Dget_space(id), .libraryCall(function: "H5Dget_space"))
            defer { _ = H5Sclose(space) }
            return try HDF5ValueIO.shape(ofSpace: space, at: location)
        }
    }

    /// The stored element type.
    /// - Throws: ``HDF5Error`` if the file is closed or HDF5 cannot read the datatype.
    public func elementType() throws -> HDF5ElementType {
        try withObjectID { id in
            let type = try location.check(id: H5Dget_type(id), .libraryCall(function: "H5Dget_type"))
            defer { _ = H5Tclose(type) }
            return HDF5ElementType(typeID: type)
        }
    }

    /// Reads all values with the dataset's shape.
    /// - Parameter type: `Float.self`, `Double.self` or `Int64.self`; must equal the stored type.
    /// - Returns: values in row-major order and the shape (`values.count` = product of `shape`).
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/typeMismatch(expected:found:)``
    ///   when the stored type differs, ``HDF5Error/Kind-swift.enum/readFailed`` with HDF5's
    ///   message when reading fails (a corrupt chunk, say).
    public func read<T: HDF5Element>(_ type: T.Type = T.self) throws -> HDF5Array<T> {
        try withObjectID { id in
            let fileType = try location.check(id: H5Dget_type(id), .libraryCall(function: "H5Dget_type"))
            defer { _ = H5Tclose(fileType) }
            let found = HDF5ElementType(typeID: fileType)
            guard found == T.hdf5ElementType else {
                throw location.error(.typeMismatch(expected: T.hdf5ElementType, found: found), message: "")
            }
            let space = try location.check(id: H5Dget_space(id), .libraryCall(function: "H5Dget_space"))
            defer { _ = H5Sclose(space) }
            let shape = try HDF5ValueIO.shape(ofSpace: space, at: location)
            let values = try HDF5ValueIO.readNumeric(T.self, count: shape.reduce(1, *), at: location) { memoryType, buffer in
                H5Dread(id, memoryType, actionlab_H5S_ALL(), actionlab_H5S_ALL(), actionlab_H5P_DEFAULT(), buffer)
            }
            return HDF5Array(values: values, shape: shape)
        }
    }

    /// Reads a one-dimensional string dataset (fixed or variable length, ASCII or UTF-8).
    ///
    /// Fixed-length strings end at their first NUL; space-padded ones lose trailing spaces.
    /// - Returns: the strings in order.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/typeMismatch(expected:found:)``
    ///   for a non-string dataset, ``HDF5Error/Kind-swift.enum/invalidShape(shape:valueCount:)``
    ///   for one that is not one-dimensional, ``HDF5Error/Kind-swift.enum/readFailed`` otherwise.
    public func readStrings() throws -> [String] {
        try withObjectID { id in
            let fileType = try location.check(id: H5Dget_type(id), .libraryCall(function: "H5Dget_type"))
            defer { _ = H5Tclose(fileType) }
            let found = HDF5ElementType(typeID: fileType)
            guard found == .string else {
                throw location.error(.typeMismatch(expected: .string, found: found), message: "")
            }
            let space = try location.check(id: H5Dget_space(id), .libraryCall(function: "H5Dget_space"))
            defer { _ = H5Sclose(space) }
            let shape = try HDF5ValueIO.shape(ofSpace: space, at: location)
            guard shape.count == 1 else {
                throw location.error(.invalidShape(shape: shape, valueCount: shape.reduce(1, *)), message: "expected a 1-D string dataset")
            }
            return try HDF5ValueIO.readStrings(fileType: fileType, space: space, count: shape[0], at: location) {
                memoryType, buffer in
                H5Dread(id, memoryType, actionlab_H5S_ALL(), actionlab_H5S_ALL(), actionlab_H5P_DEFAULT(), buffer)
            }
        }
    }
}
