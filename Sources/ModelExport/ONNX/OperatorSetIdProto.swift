import Protobuf

extension ONNX {
    /// An operator set a model imports (`onnx.proto`, message `OperatorSetIdProto`).
    public struct OperatorSetIdProto: Hashable, Sendable, ProtobufMessage {
        /// Field 1, `domain`: the operator set's domain; empty for the default `ai.onnx`.
        public var domain: String
        /// Field 2, `version`: the operator set version.
        public var version: Int64

        /// Creates an operator set import.
        public init(domain: String = "", version: Int64) {
            self.domain = domain
            self.version = version
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            // "The empty string or absence of this field implies the operator set that is defined
            // as part of the ONNX specification": the default domain is left out.
            if !domain.isEmpty { encoder.writeString(field: 1, domain) }
            encoder.writeInt64(field: 2, version)
        }
    }
}
