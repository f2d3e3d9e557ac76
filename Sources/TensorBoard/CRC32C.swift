/// CRC-32C (Castagnoli), the checksum of TFRecord framing, and TensorFlow's masked form of it.
///
/// The polynomial is 0x1EDC6F41 (reflected: 0x82F63B78), initial value and final XOR 0xFFFFFFFF,
/// bits processed least significant first: RFC 3720 (iSCSI), section 12.1 and appendix B.4, whose
/// check value for the ASCII bytes "123456789" is 0xE3069283. The table-driven form processes a
/// byte per step (Sarwate's algorithm); event files are a few kilobytes, so no faster form is needed.
public enum CRC32C {
    /// `table[b]` is the CRC of the single byte `b` without the initial value or final XOR.
    private static let table: [UInt32] = (0..<256).map { byte in
        var crc = UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }

    /// The CRC-32C of `bytes`.
    public static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// TensorFlow's masked CRC: the checksum rotated right by 15 bits plus 0xA282EAD8, so that a
    /// CRC stored inside checksummed data does not checksum to a constant
    /// (`tensorflow/core/lib/hash/crc32c.h`, `Mask`; TFRecord framing uses it for both checksums).
    public static func masked<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        let crc = checksum(bytes)
        return ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8
    }
}
