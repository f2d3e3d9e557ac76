import ManifestSchema

extension DatasetConfiguration: ManifestSection {
    package static var defaults: DatasetConfiguration { DatasetConfiguration(sources: []) }

    package static var settings: [Setting<DatasetConfiguration>] {
        [
            .list("sources", \.sources, of: "source", minimumCount: DataSource.minimumListCount,
                  "training data: a list of sources (below); validation may be carved from it")
                .required("the training data, a list of { format, path } objects"),
            Setting("labels", \.labels, labelsKind,
                    "rename map applied after import, `{ \"1\": \"gun\" }`; a label mapped to `null` is dropped"),
            .section("validation", \.validation, "how the validation set is made"),
            Setting("onError", \.onError, .optional(.choice(FailurePolicy.self)),
                    "a source file that fails: `fail` the run before training (default for `uea`, `csv`, `openpose`, `kinetics`, `mat`) or "
                        + "`skip` it with a warning, listed under `skipped` in each trial's `provenance.json` and by `validate --data` "
                        + "(default for `video`, `montage`)")
                .defaultText("per format"),
            .optionalSection("test", \.test, "the held-out test set"),
        ]
    }

    /// Label renames: raw label to new name, or to `null` to drop the label's samples.
    private static var labelsKind: SettingKind<[String: String?]> {
        SettingKind(
            type: "object of strings or `null`", describe: { $0.isEmpty ? "{}" : nil },
            read: { node in
                node.dictionary { entry -> String?? in
                    // `null` drops the label's samples; a string renames it.
                    entry.value.isNull ? .some(nil) : entry.nonEmptyString().map { .some($0) }
                }
            })
    }

    /// Reads `dataset`, whose sources' frame rates default to `defaultFrameRate` (`features.frameRate`).
    init(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        let reading = Self.read(object)
        self = reading.value
        if let node = reading.node(\.sources) {
            sources = DataSource.list(from: node, defaultFrameRate: defaultFrameRate) ?? []
        }
        validation = reading.section(\.validation) { 
            ValidationConfiguration(reading: $0, defaultFrameRate: defaultFrameRate, trainingSources: sources)
        } ?? validation
        test = reading.node(\.test)?.object {
            TestSetConfiguration(reading: $0, defaultFrameRate: defaultFrameRate, trainingSources: sources)
        }
    }
}

extension DatasetConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
