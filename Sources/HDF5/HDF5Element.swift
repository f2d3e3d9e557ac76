internal import CHDF5

/// The element types this module reads and writes, and a description of any other stored type.
public enum HDF5ElementType: Hashable, Sendable, CustomStringConvertible {
    /// IEEE 754 binary32 (`Float`).
    case float32
    /// IEEE 754 binary64 (`Double`).
    case float64
    /// Signed 64-bit integer (`Int64`).
    case int64
    /// Text, fixed or variable length.
    case string
    /// A stored type this module does not map to Swift; the text describes it, for example
    /// `"integer, 4 bytes, signed"`.
    case other(String)

    public var description: String {
        switch self {
        case .float32: "float32"
        case .float64: "float64"
        case .int64: "int64"
        case .string: "string"
        case let .other(text): text
        }
    }

    /// The native in-memory HDF5 type for numeric cases; nil for strings and other types.
    var nativeTypeID: hid_t? {
        switch self {
        case .float32: actionlab_H5T_NATIVE_FLOAT()
        case .float64: actionlab_H5T_NATIVE_DOUBLE()
        case .int64: actionlab_H5T_NATIVE_INT64()
        case .string, .other: nil
        }
    }

    /// Bytes per element in memory for numeric cases.
    var byteCount: Int? {
        switch self {
        case .float32: 4
        case .float64, .int64: 8
        case .string, .other: nil
        }
    }

    /// Classifies a stored (file) datatype. Call with ``HDF5Lock`` held.
    init(typeID: hid_t) {
        let size = H5Tget_size(typeID)
        switch H5Tget_class(typeID) {
        case H5T_FLOAT where size == 4: self = .float32
        case H5T_FLOAT where size == 8: self = .float64
        case H5T_FLOAT: self = .other("float, \(size) bytes")
        case H5T_INTEGER:
            let signed = H5Tget_sign(typeID) == H5T_SGN_2
            self = signed && size == 8 ? .int64 : .other("integer, \(size) bytes, \(signed ? "signed" : "unsigned")")
        case H5T_STRING: self = .string
        case H5T_COMPOUND: self = .other("compound")
        case H5T_ENUM: self = .other("enum")
        case H5T_ARRAY: self = .other("array")
        case H5T_VLEN: self = .other("variable-length sequence")
        default: self = .other("type class \(H5Tget_class(typeID).rawValue)")
        }
    }
}

/// A numeric Swift type that maps one-to-one onto an HDF5 element type: `Float`, `Double`, `Int64`.
///
/// Only the module's own conformances are supported: values are copied to and from HDF5 as raw
/// memory of ``hdf5ElementType``, so a conformance with a different memory layout is rejected at
/// run time with ``HDF5Error/Kind-swift.enum/invalidArgument(_:)``.
public protocol HDF5Element: Sendable, Equatable {
    /// The HDF5 element type whose native memory layout equals this Swift type's.
    static var hdf5ElementType: HDF5ElementType { get }
}

extension Float: HDF5Element {
    public static var hdf5ElementType: HDF5ElementType { .float32 }
}

extension Double: HDF5Element {
    public static var hdf5ElementType: HDF5ElementType { .float64 }
}

extension Int64: HDF5Element {
    public static var hdf5ElementType: HDF5ElementType { .int64 }
}

extension HDF5Element {
    /// The native memory type, after checking that the conformance's layout matches it.
    static func nativeTypeID(at location: HDF5Location) throws -> hid_t {
        guard let typeID = hdf5ElementType.nativeTypeID,
            hdf5ElementType.byteCount == MemoryLayout<Self>.stride
        else {
            throw location.error(
                .invalidArgument("\(Self.self) does not have the memory layout of \(hdf5ElementType)"), message: "")
        }
        return typeID
    }
}

/// Values read from a dataset with their shape: `values.count` equals the product of `shape`.
///
/// Values are in row-major (C) order: the last dimension varies fastest. A scalar dataset has
/// shape `[]` and one value.
public struct HDF5Array<Element: HDF5Element>: Equatable, Sendable {
    /// The values, flattened in row-major order.
    public var values: [Element]
    /// The length of each dimension, outermost first.
    public var shape: [Int]

    /// Creates an array; does not check that `values.count` matches `shape`.
    public init(values: [Element], shape: [Int]) {
        self.values = values
        self.shape = shape
    }
}
