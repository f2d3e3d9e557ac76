import ManifestSchema
import NeuralNetwork

extension KeypointStream: ManifestChoice {}

/// The keys of the `model` object every family shares besides `kind`, declared once:
/// `dropout`, `normalizeInput` and `stream`.
struct SharedModelSettings: ManifestSection, Hashable {
    var dropout: Double
    var normalizeInput: Bool
    var stream: KeypointStream

    static var defaults: SharedModelSettings { SharedModelSettings(dropout: 0, normalizeInput: false, stream: .joint) }

    static var settings: [Setting<SharedModelSettings>] {
        [
            Setting("dropout", \.dropout, .number(.unitInterval),
                    "dropout probability; each family says where (`tcn`: after each block, `stgcn`: at the end of each block's "
                        + "temporal part, `stgcnpp` and `ctrgcn`: at the end of each block's temporal unit but the first's, `mlp`: after the hidden layer)"),
            Setting("normalizeInput", \.normalizeInput, .boolean,
                    "centre and scale the keypoints inside the model (below), so an exported model takes raw keypoints: per frame on "
                        + "image pose (x, y, confidence), per window on the hip and by the spine length on 3-D skeletons (`kinect-v1`)"),
            // Written only when it is not the joints, so trial ids of manifests without it do not change.
            Setting("stream", \.stream, .choice(KeypointStream.self),
                    "what the model classifies, computed inside it from the (normalized) keypoints: `joint`, `bone` (each joint minus "
                        + "its parent along the layout's bone tree), `jointMotion` or `boneMotion` (next frame minus this frame); "
                        + "the confidence channel is averaged, not differenced (PYSKL's `GenSkeFeat`). Trials that differ only in "
                        + "stream are fused into an ensemble by `sweep.ensembleWeights`").encoded(when: { $0.stream != .joint }),
        ]
    }

    func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }

    init(dropout: Double, normalizeInput: Bool, stream: KeypointStream) {
        self.dropout = dropout
        self.normalizeInput = normalizeInput
        self.stream = stream
    }
}
