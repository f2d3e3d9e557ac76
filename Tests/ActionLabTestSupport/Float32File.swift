import Foundation

/// `values` as raw little-endian float32 bytes, the form the Python reference checks read with
/// `numpy.fromfile(path, dtype="<f4")`.
public func littleEndianFloat32Data(_ values: [Float]) -> Data {
    var data = Data(capacity: 4 * values.count)
    for value in values {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
    }
    return data
}
