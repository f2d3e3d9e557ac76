/// The data an experiment trains, validates and tests on, and how labels are renamed.
public struct DatasetConfiguration: Sendable, Hashable, Codable {
    /// The training sources; validation may be carved from them. At least one.
    public var sources: [DataSource]
    /// Label renames applied after import, from raw label to new name; a raw label mapped to
    /// `nil` drops its samples. Labels not in the map keep their names.
    public var labels: [String: String?]
    /// How the validation set is made.
    public var validation: ValidationConfiguration
    /// The test set, or `nil` for none.
    public var test: TestSetConfiguration?

    /// Creates a dataset configuration.
    public init(
        sources: [DataSource], labels: [String: String?] = [:], validation: ValidationConfiguration = .init(),
        test: TestSetConfiguration? = nil
    ) {
        self.sources = sources
        self.labels = labels
        self.validation = validation
        self.test = test
    }
}

extension DatasetConfiguration {
    init(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        self.init(sources: [])
        if let node = object.required("sources", "the training data, a list of { format, path } objects") {
            sources = DataSource.list(from: node, defaultFrameRate: defaultFrameRate) ?? []
        }
        object.read("labels", into: &labels) { node in
            node.dictionary { entry -> String?? in
                // `null` drops the label's samples; a string renames it.
                entry.value.isNull ? .some(nil) : entry.nonEmptyString().map { .some($0) }
            }
        }
        validation = object.section("validation") { ValidationConfiguration(reading: $0, defaultFrameRate: defaultFrameRate) } ?? validation
        test = object.member("test")?.object { TestSetConfiguration(reading: $0, defaultFrameRate: defaultFrameRate) }
    }
}
