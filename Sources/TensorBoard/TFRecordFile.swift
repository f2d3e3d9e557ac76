import Foundation

/// The bytes of a TFRecord file: a sequence of length-framed, checksummed records.
///
/// Each record is, all integers little-endian (TensorFlow `tensorflow/core/lib/io/record_writer.cc`,
/// and TensorBoard's `tensorflow_stub` reader that checks both checksums):
///
/// ```
/// uint64 length
/// uint32 masked CRC-32C of the 8 length bytes
/// byte   data[length]
/// uint32 masked CRC-32C of data
/// ```
///
/// TensorBoard event files are TFRecord files of serialized `Event` messages.
public struct TFRecordFile: Sendable, Equatable {
    /// The file's bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty file.
    public init() {}

    /// Appends one record.
    /// - Parameter record: The record's payload (for an event file, one serialized `Event`).
    public mutating func append(_ record: [UInt8]) {
        let length = Self.littleEndian(UInt64(record.count))
        bytes += length
        bytes += Self.littleEndian(CRC32C.masked(length))
        bytes += record
        bytes += Self.littleEndian(CRC32C.masked(record))
    }

    private static func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        (0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
