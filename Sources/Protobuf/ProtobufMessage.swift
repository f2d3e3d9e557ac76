import Foundation

/// A value that serializes itself as a protocol buffers message.
///
/// Conformers write their set fields with ``ProtobufEncoder`` in ascending field-number order,
/// leaving out absent optional fields and empty repeated fields.
public protocol ProtobufMessage {
    /// Appends the message's fields (without an enclosing tag or length) to `encoder`.
    func encode(to encoder: inout ProtobufEncoder)
}

extension ProtobufMessage {
    /// The message's wire-format bytes.
    public func serializedBytes() -> [UInt8] {
        var encoder = ProtobufEncoder()
        encode(to: &encoder)
        return encoder.bytes
    }

    /// The message's wire-format bytes as `Data`, ready to write to a file.
    public func serializedData() -> Data {
        Data(serializedBytes())
    }
}
