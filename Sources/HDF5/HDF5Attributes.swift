internal import CHDF5

/// The attributes of a group or dataset: small named values (text, numbers, short arrays).
///
/// Writing replaces an existing attribute of the same name, whatever its type. Reading never
/// converts between types: an int64 attribute read with ``double(_:)`` throws
/// ``HDF5Error/Kind-swift.enum/typeMismatch(expected:found:)``. Strings are written as
/// variable-length UTF-8, which h5py returns as `str`.
public struct HDF5Attributes: Sendable {
    let owner: any HDF5Object

    init(owner: any HDF5Object) {
        self.owner = owner
    }

    // MARK: Writing

    /// Writes a string attribute (a scalar).
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/cannotCreateObject`` or
    ///   ``HDF5Error/Kind-swift.enum/writeFailed`` with HDF5's message (a read-only file, say).
    public func write(_ value: String, named name: String) throws {
        try writeStrings([value], shape: [], named: name)
    }

    /// Writes a one-dimensional string array attribute, shape `[values.count]`.
    /// - Throws: as ``write(_:named:)-(String,_)``.
    public func write(_ values: [String], named name: String) throws {
        try writeStrings(values, shape: [values.count], named: name)
    }

    /// Writes a float64 attribute (a scalar).
    /// - Throws: as ``write(_:named:)-(String,_)``.
    public func write(_ value: Double, named name: String) throws {
        try writeNumbers([value], shape: [], named: name)
    }

    /// Writes a one-dimensional float64 array attribute, shape `[values.count]`.
    /// - Throws: as ``write(_:named:)-(String,_)``.
    public func write(_ values: [Double], named name: String) throws {
        try writeNumbers(values, shape: [values.count], named: name)
    }

    /// Writes an int64 attribute (a scalar).
    /// - Throws: as ``write(_:named:)-(String,_)``.
    public func write(_ value: Int64, named name: String) throws {
        try writeNumbers([value], shape: [], named: name)
    }

    /// Writes a one-dimensional int64 array attribute, shape `[values.count]`.
    /// - Throws: as ``write(_:named:)-(String,_)``.
    public func write(_ values: [Int64], named name: String) throws {
        try writeNumbers(values, shape: [values.count], named: name)
    }

    // MARK: Reading

    /// Reads a string attribute holding exactly one value.
    /// - Throws: ``HDF5Error`` of kind ``HDF5Error/Kind-swift.enum/objectNotFound`` if there is no
    ///   such attribute, ``HDF5Error/Kind-swift.enum/typeMismatch(expected:found:)`` if it is not
    ///   text, ``HDF5Error/Kind-swift.enum/invalidShape(shape:valueCount:)`` if it holds several.
    public func string(_ name: String) throws -> String {
        try single(strings(name), name: name)
    }

    /// Reads a string attribute of any shape, flattened in row-major order.
    /// - Throws: as ``string(_:)``, except that any count is accepted.
    public func strings(_ name: String) throws -> [String] {
        try withAttribute(name) { attribute, fileType, space, count, location in
            let found = HDF5ElementType(typeID: fileType)
            guard found == .string else {
                throw location.error(.typeMismatch(expected: .string, found: found), message: "")
            }
            return try HDF5ValueIO.readStrings(fileType: fileType, space: space, count: count, at: location) {
                memoryType, buffer in H5Aread(attribute, memoryType, buffer)
            }
        }
    }

    /// Reads a float64 attribute holding exactly one value.
    /// - Throws: as ``string(_:)``.
    public func double(_ name: String) throws -> Double {
        try single(doubles(name), name: name)
    }

    /// Reads a float64 attribute of any shape, flattened in row-major order.
    /// - Throws: as ``strings(_:)``.
    public func doubles(_ name: String) throws -> [Double] {
        try numbers(Double.self, name)
    }

    /// Reads an int64 attribute holding exactly one value.
    /// - Throws: as ``string(_:)``.
    public func int64(_ name: String) throws -> Int64 {
        try single(int64s(name), name: name)
    }

    /// Reads an int64 attribute of any shape, flattened in row-major order.
    /// - Throws: as ``strings(_:)``.
    public func int64s(_ name: String) throws -> [Int64] {
        try numbers(Int64.self, name)
    }

    // MARK: Listing

    /// The names of all attributes, sorted ascending.
    /// - Throws: ``HDF5Error`` if the file is closed or HDF5 cannot list them.
    public func names() throws -> [String] {
        try owner.withObjectID { id in
            var names: [String] = []
            var index: hsize_t = 0
            let status = withUnsafeMutablePointer(to: &names) { namesPointer in
                H5Aiterate2(id, H5_INDEX_NAME, H5_ITER_INC, &index, { _, name, _, clientData in
                    guard let name, let clientData else { return -1 }
                    clientData.assumingMemoryBound(to: [String].self).pointee.append(String(cString: name))
                    return 0
                }, namesPointer)
            }
            try owner.location.check(status: status, .libraryCall(function: "H5Aiterate2"))
            return names.sorted()
        }
    }

    /// Whether an attribute named `name` exists.
    /// - Throws: ``HDF5Error`` if the file is closed or HDF5 fails.
    public func contains(_ name: String) throws -> Bool {
        try owner.withObjectID { id in
            try owner.location.attribute(name).check(tri: H5Aexists(id, name), .libraryCall(function: "H5Aexists"))
        }
    }

    // MARK: Implementation

    private func single<T>(_ values: [T], name: String) throws -> T {
        guard values.count == 1, let value = values.first else {
            throw owner.location.attribute(name).error(
                .invalidShape(shape: [values.count], valueCount: values.count), message: "expected exactly one value")
        }
        return value
    }

    private func numbers<T: HDF5Element>(_: T.Type, _ name: String) throws -> [T] {
        try withAttribute(name) { attribute, fileType, _, count, location in
            let found = HDF5ElementType(typeID: fileType)
            guard found == T.hdf5ElementType else {
                throw location.error(.typeMismatch(expected: T.hdf5ElementType, found: found), message: "")
            }
            return try HDF5ValueIO.readNumeric(T.self, count: count, at: location) { memoryType, buffer in
                H5Aread(attribute, memoryType, buffer)
            }
        }
    }

    /// Opens attribute `name` and passes its identifier, file type, dataspace and element count.
    private func withAttribute<T>(
        _ name: String, _ body: (hid_t, hid_t, hid_t, Int, HDF5Location) throws -> T
    ) throws -> T {
        try owner.withObjectID { id in
            let location = owner.location.attribute(name)
            guard try location.check(tri: H5Aexists(id, name), .libraryCall(function: "H5Aexists")) else {
                throw location.error(.objectNotFound, message: "")
            }
            let attribute = try location.check(id: H5Aopen(id, name, actionlab_H5P_DEFAULT()), .cannotOpenObject)
            defer { _ = H5Aclose(attribute) }
            let fileType = try location.check(id: H5Aget_type(attribute), .libraryCall(function: "H5Aget_type"))
            defer { _ = H5Tclose(fileType) }
            let space = try location.check(id: H5Aget_space(attribute), .libraryCall(function: "H5Aget_space"))
            defer { _ = H5Sclose(space) }
            let shape = try HDF5ValueIO.shape(ofSpace: space, at: location)
            return try body(attribute, fileType, space, shape.reduce(1, *), location)
        }
    }

    /// Deletes any attribute `name`, then creates one of `fileType` and `shape`, and writes it
    /// with `write(attribute)`.
    private func replace(
        _ name: String, fileType: hid_t, shape: [Int], location: HDF5Location, id: hid_t,
        write: (hid_t) throws -> herr_t
    ) throws {
        if try location.check(tri: H5Aexists(id, name), .libraryCall(function: "H5Aexists")) {
            try location.check(status: H5Adelete(id, name), .cannotCreateObject)
        }
        let space = try HDF5ValueIO.makeSpace(shape: shape, at: location)
        defer { _ = H5Sclose(space) }
        let attribute = try location.check(
            id: H5Acreate2(id, name, fileType, space, actionlab_H5P_DEFAULT(), actionlab_H5P_DEFAULT()),
            .cannotCreateObject)
        defer { _ = H5Aclose(attribute) }
        try location.check(status: try write(attribute), .writeFailed)
    }

    private func writeNumbers<T: HDF5Element>(_ values: [T], shape: [Int], named name: String) throws {
        try owner.withObjectID { id in
            let location = owner.location.attribute(name)
            let memoryType = try T.nativeTypeID(at: location)
            try replace(name, fileType: memoryType, shape: shape, location: location, id: id) { attribute in
                // An empty array attribute has nothing to write; HDF5 rejects a null buffer.
                guard !values.isEmpty else { return 0 }
                return values.withUnsafeBytes { H5Awrite(attribute, memoryType, $0.baseAddress) }
            }
        }
    }

    private func writeStrings(_ values: [String], shape: [Int], named name: String) throws {
        try owner.withObjectID { id in
            let location = owner.location.attribute(name)
            let stringType = try HDF5ValueIO.makeVariableStringType(at: location)
            defer { _ = H5Tclose(stringType) }
            try replace(name, fileType: stringType, shape: shape, location: location, id: id) { attribute in
                guard !values.isEmpty else { return 0 }
                return try HDF5ValueIO.withCStringArray(values, at: location) { H5Awrite(attribute, stringType, $0) }
            }
        }
    }
}
