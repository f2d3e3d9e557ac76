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
                        + "temporal part, `mlp`: after the hidden layer)"),
            Setting("normalizeInput", \.normalizeInput, .boolean,
                    "centre and scale each frame's x, y inside the model (below), so an exported model takes raw keypoints; "
                        + "body-pose layouts (x, y, confidence) only"),
        ]
    }

    func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }

    init(dropout: Double, normalizeInput: Bool) {
        self.dropout = dropout
        self.normalizeInput = normalizeInput
    }
}
