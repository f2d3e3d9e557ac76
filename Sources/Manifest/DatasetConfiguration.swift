import ManifestSchema

/// The data an experiment trains, validates and tests on, and how labels are renamed.
public struct DatasetConfiguration: Sendable, Hashable {
    /// The training sources; validation may be carved from them. At least one.
    public var sources: [DataSource]
    /// Label renames applied after import, from raw label to new name; a raw label mapped to
    /// `nil` drops its samples. Labels not in the map keep their names.
    public var labels: [String: String?]
    /// How the validation set is made.
    public var validation: ValidationConfiguration
    /// The test set, or `nil` for none.
    public var test: TestSetConfiguration?
    /// What a source file that cannot be read does to the run (`dataset.onError`); nil for each
    /// format's default (``FailurePolicy/default(for:)``).
    public var onError: FailurePolicy?

    /// What one unreadable source file does to a run.
    public enum FailurePolicy: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// The run fails before training, listing every bad file.
        case fail
        /// The file is skipped with a warning, recorded in provenance and the summary; the rest trains.
        case skip

        /// The default for a format: `skip` for videos (`video`, `montage`), where one damaged
        /// recording among many is ordinary, and `fail` for keypoint and sensor files, which are
        /// small, curated and rarely wrong without the whole set being wrong.
        public static func `default`(for format: DataSource.Format) -> FailurePolicy {
            format.decodesVideo ? .skip : .fail
        }
    }

    /// The policy that applies to a file of `format`: ``onError`` or the format's default.
    public func failurePolicy(for format: DataSource.Format) -> FailurePolicy {
        onError ?? .default(for: format)
    }

    /// Creates a dataset configuration.
    public init(
        sources: [DataSource], labels: [String: String?] = [:], validation: ValidationConfiguration = .init(),
        test: TestSetConfiguration? = nil, onError: FailurePolicy? = nil
    ) {
        self.onError = onError
        self.sources = sources
        self.labels = labels
        self.validation = validation
        self.test = test
    }
}
