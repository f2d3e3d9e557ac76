import Protobuf

/// The ONNX model format (<https://onnx.ai>), as far as ActionLab writes it.
///
/// The nested types mirror the messages of `onnx/onnx.proto` (the ONNX repository's protocol
/// buffers schema, the normative file format) and carry its field numbers; each serializes
/// itself with ``ProtobufEncoder``. Only the fields an inference graph of dense float tensors
/// needs are modelled.
public enum ONNX {
    /// The IR version written in `ModelProto.ir_version`: 8, the IR of ONNX 1.10 to 1.12, which
    /// goes with the default-domain operator set 17 (ONNX `docs/Versioning.md`, "Released Versions").
    public static let irVersion: Int64 = 8

    /// The default-domain (`ai.onnx`) operator set every exported graph imports: 17, which every
    /// onnxruntime since 1.13 executes.
    public static let opsetVersion: Int64 = 17
}
