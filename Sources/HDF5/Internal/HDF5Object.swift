internal import CHDF5
import Foundation

/// An open group or dataset: the parts that attributes and the lock discipline need.
protocol HDF5Object: AnyObject, Sendable {
    /// The file this object belongs to; kept alive by the object.
    var file: HDF5File { get }
    /// The object's HDF5 identifier; valid only while ``file`` is open.
    var objectID: hid_t { get }
    /// The file and path used in errors.
    var location: HDF5Location { get }
}

extension HDF5Object {
    /// Runs `body` with the lock held and the object's identifier, after checking that the file
    /// is still open.
    func withObjectID<T>(_ body: (hid_t) throws -> T) throws -> T {
        try HDF5Lock.withLock {
            _ = try file.openID(for: location)
            return try body(objectID)
        }
    }
}

/// Value transfer shared by datasets and attributes.
enum HDF5ValueIO {
    /// The dimensions of a dataspace, outermost first; `[]` for a scalar. Lock held.
    static func shape(ofSpace space: hid_t, at location: HDF5Location) throws -> [Int] {
        let rank = H5Sget_simple_extent_ndims(space)
        guard rank >= 0 else { throw location.error(.libraryCall(function: "H5Sget_simple_extent_ndims")) }
        guard rank > 0 else { return [] }
        var dims = [hsize_t](repeating: 0, count: Int(rank))
        guard H5Sget_simple_extent_dims(space, &dims, nil) >= 0 else {
            throw location.error(.libraryCall(function: "H5Sget_simple_extent_dims"))
        }
        return dims.map { Int($0) }
    }

    /// Creates a dataspace of `shape` (`[]` = scalar). The caller closes it. Lock held.
    static func makeSpace(shape: [Int], at location: HDF5Location) throws -> hid_t {
        if shape.isEmpty {
            return try location.check(id: H5Screate(H5S_SCALAR), .libraryCall(function: "H5Screate"))
        }
        let dims = shape.map { hsize_t($0) }
        return try location.check(
            id: H5Screate_simple(Int32(dims.count), dims, nil), .libraryCall(function: "H5Screate_simple"))
    }

    /// Checks that `shape` is non-negative and holds exactly `count` values.
    static func validate(shape: [Int], count: Int, at location: HDF5Location) throws {
        guard shape.allSatisfy({ $0 >= 0 }), shape.reduce(1, *) == count else {
            throw location.error(.invalidShape(shape: shape, valueCount: count), message: "")
        }
    }

    /// Reads `count` numeric values through `read(memoryType, buffer)`. Lock held.
    static func readNumeric<T: HDF5Element>(
        _: T.Type, count: Int, at location: HDF5Location,
        read: (hid_t, UnsafeMutableRawPointer) -> herr_t
    ) throws -> [T] {
        let memoryType = try T.nativeTypeID(at: location)
        guard count > 0 else { return [] }
        var status: herr_t = -1
        let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            status = read(memoryType, UnsafeMutableRawPointer(base))
            // Numeric element types are trivial, so counting them as initialized is safe even
            // if HDF5 failed part-way; the array is discarded on failure below.
            initialized = count
        }
        guard status >= 0 else { throw location.error(.readFailed) }
        return values
    }

    /// A variable-length UTF-8 string type. The caller closes it. Lock held.
    static func makeVariableStringType(at location: HDF5Location) throws -> hid_t {
        let type = try location.check(id: H5Tcopy(actionlab_H5T_C_S1()), .libraryCall(function: "H5Tcopy"))
        guard H5Tset_size(type, actionlab_H5T_VARIABLE()) >= 0, H5Tset_cset(type, H5T_CSET_UTF8) >= 0 else {
            let error = location.error(.libraryCall(function: "H5Tset_size"))
            _ = H5Tclose(type)
            throw error
        }
        return type
    }

    /// Calls `body` with a buffer of C string pointers for `strings`, as HDF5 expects for
    /// variable-length strings. A string is cut at its first NUL character.
    static func withCStringArray<T>(
        _ strings: [String], at location: HDF5Location, _ body: (UnsafeRawPointer?) throws -> T
    ) throws -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = []
        pointers.reserveCapacity(strings.count)
        defer { pointers.forEach { free($0) } }
        for string in strings {
            guard let copy = strdup(string) else {
                throw location.error(.invalidArgument("out of memory copying a string"), message: "")
            }
            pointers.append(copy)
        }
        return try pointers.withUnsafeBufferPointer { try body(UnsafeRawPointer($0.baseAddress)) }
    }

    /// Reads `count` strings stored with `fileType` (fixed or variable length) through
    /// `read(memoryType, buffer)`. Lock held.
    static func readStrings(
        fileType: hid_t, space: hid_t, count: Int, at location: HDF5Location,
        read: (hid_t, UnsafeMutableRawPointer) -> herr_t
    ) throws -> [String] {
        guard count > 0 else { return [] }
        let isVariable = try location.check(tri: H5Tis_variable_str(fileType), .libraryCall(function: "H5Tis_variable_str"))
        if isVariable {
            let memoryType = try makeVariableStringType(at: location)
            defer { _ = H5Tclose(memoryType) }
            var pointers = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
            let status = pointers.withUnsafeMutableBufferPointer { buffer -> herr_t in
                guard let base = buffer.baseAddress else { return -1 }
                return read(memoryType, UnsafeMutableRawPointer(base))
            }
            guard status >= 0 else { throw location.error(.readFailed) }
            let strings = pointers.map { $0.map { String(cString: $0) } ?? "" }
            _ = pointers.withUnsafeMutableBufferPointer { buffer in
                H5Dvlen_reclaim(memoryType, space, actionlab_H5P_DEFAULT(), buffer.baseAddress)
            }
            return strings
        }
        let size = H5Tget_size(fileType)
        guard size > 0 else { throw location.error(.libraryCall(function: "H5Tget_size")) }
        let memoryType = try location.check(id: H5Tcopy(fileType), .libraryCall(function: "H5Tcopy"))
        defer { _ = H5Tclose(memoryType) }
        let spacePadded = H5Tget_strpad(fileType) == H5T_STR_SPACEPAD
        var bytes = [UInt8](repeating: 0, count: count * size)
        let status = bytes.withUnsafeMutableBytes { buffer -> herr_t in
            guard let base = buffer.baseAddress else { return -1 }
            return read(memoryType, base)
        }
        guard status >= 0 else { throw location.error(.readFailed) }
        return (0..<count).map { index in
            var field = bytes[(index * size)..<((index + 1) * size)].prefix { $0 != 0 }
            if spacePadded {
                while field.last == UInt8(ascii: " ") { field = field.dropLast() }
            }
            return String(decoding: field, as: UTF8.self)
        }
    }
}
