import ManifestSchema

/// The keys of the `model` object every family shares besides `kind`, declared once:
/// `dropout` and `normalizeInput`.
struct SharedModelSettings: ManifestSection, Hashable {
    var dropout: Double
    var normalizeInput: Bool

    static var defaults: SharedModelSettings { SharedModelSettings(dropout: 0, normalizeInput: false) }

    static var settings: [Setting<SharedModelSettings>] {
        [
            Setting("dropout", \.dropout, .number(.unitInterval),
                    "dropout probability; each family says where (`tcn`: after each block, `stgcn`: at the end of each block's "
                        + "temporal part, `stgcnpp`: at the end of each block's temporal unit but the first's, `mlp`: after the hidden layer)"),
            Setting("normalizeInput", \.normalizeInput, .boolean,
                    "centre and scale the keypoints inside the model (below), so an exported model takes raw keypoints: per frame on "
                        + "image pose (x, y, confidence), per window on the hip and by the spine length on 3-D skeletons (`kinect-v1`)"),
        ]
    }

    func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }

    init(dropout: Double, normalizeInput: Bool) {
        self.dropout = dropout
        self.normalizeInput = normalizeInput
    }
}
