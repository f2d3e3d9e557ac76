import Foundation
import JSON5
import NeuralNetwork

/// Float32 tensors in Hugging Face's safetensors format, readable by `safetensors.numpy.load_file`.
///
/// Layout (huggingface/safetensors `README.md`, "Format"):
/// ```
/// 8 bytes   N, the header size: an unsigned little-endian 64-bit integer
/// N bytes   a UTF-8 JSON object: {"__metadata__": {string: string},
///           "<name>": {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, ...}
///           — it begins with "{" and may be padded at the end with spaces (0x20)
/// rest      the byte buffer: each tensor's elements, row-major, little-endian
/// ```
/// `data_offsets` are byte offsets into the buffer (not the file); the buffer is covered
/// entirely, without holes or overlaps. Here tensors follow one another in the given order and
/// the header is padded so that the buffer starts at a multiple of 8 bytes, the alignment the
/// reference implementation writes.
public struct SafetensorsFile: Sendable {
    /// The tensors in file order, e.g. a model's state dictionary.
    public var tensors: [(name: String, tensor: Tensor)]
    /// Free-form string metadata, written under `__metadata__` with sorted keys.
    public var metadata: [String: String]

    /// Creates a file's contents.
    public init(tensors: [(name: String, tensor: Tensor)], metadata: [String: String] = [:]) {
        self.tensors = tensors
        self.metadata = metadata
    }

    /// The data offsets are aligned to this many bytes from the start of the file.
    public static let alignment = 8

    /// The file's bytes.
    ///
    /// - Returns: The 8-byte header size, the padded JSON header and the tensor data.
    /// - Throws: ``SafetensorsError`` for duplicate, empty or reserved tensor names.
    public func serialized() throws -> Data {
        var names: Set<String> = []
        for (name, _) in tensors {
            guard !name.isEmpty, name != "__metadata__" else { throw SafetensorsError.invalidTensorName(name) }
            guard names.insert(name).inserted else { throw SafetensorsError.duplicateTensorName(name) }
        }
        var entries: [String] = []
        if !metadata.isEmpty {
            let pairs = metadata.sorted { $0.key < $1.key }.map { JSONStringEscaping.quoted($0.key) + ":" + JSONStringEscaping.quoted($0.value) }
            entries.append(JSONStringEscaping.quoted("__metadata__") + ":{" + pairs.joined(separator: ",") + "}")
        }
        var offset = 0
        for (name, tensor) in tensors {
            let end = offset + 4 * tensor.count
            entries.append(
                JSONStringEscaping.quoted(name) + ":{\"dtype\":\"F32\",\"shape\":["
                    + tensor.shape.map(String.init).joined(separator: ",")
                    + "],\"data_offsets\":[\(offset),\(end)]}")
            offset = end
        }
        var header = Array(("{" + entries.joined(separator: ",") + "}").utf8)
        while (8 + header.count) % Self.alignment != 0 { header.append(0x20) }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + header.count + offset)
        bytes.appendLittleEndian(UInt64(header.count))
        bytes.append(contentsOf: header)
        for (_, tensor) in tensors {
            for value in tensor.values { bytes.appendLittleEndian(value.bitPattern) }
        }
        return Data(bytes)
    }
}
