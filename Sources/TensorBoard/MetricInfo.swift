import Protobuf

/// A metric of an HParams experiment: a scalar tag the sessions' event files hold
/// (`MetricInfo` of `tensorboard/plugins/hparams/api.proto`: `name` = 1, a `MetricName` of
/// `group` = 1 and `tag` = 2; `display_name` = 3, `description` = 4, `dataset_type` = 5).
public struct MetricInfo: Sendable, Equatable {
    /// Which data a metric is computed on (`DatasetType`: `DATASET_UNKNOWN` = 0,
    /// `DATASET_TRAINING` = 1, `DATASET_VALIDATION` = 2; test scores are "unknown" to the plugin).
    public enum Dataset: Int64, Sendable {
        case unknown = 0
        case training = 1
        case validation = 2
    }

    /// The scalar's tag in each session's event file (its run: the group is empty).
    public var tag: String
    /// Shown instead of the tag when not empty.
    public var displayName: String
    /// A sentence shown as a tooltip; may be empty.
    public var description: String
    public var dataset: Dataset

    /// Creates a metric description.
    public init(tag: String, displayName: String = "", description: String = "", dataset: Dataset = .unknown) {
        self.tag = tag
        self.displayName = displayName
        self.description = description
        self.dataset = dataset
    }
}

extension MetricInfo: ProtobufMessage {
    /// Writes the message's fields, as the `.proto` file above numbers them.
    public func encode(to encoder: inout ProtobufEncoder) {
        encoder.writeMessage(field: 1, MetricName(tag: tag))
        if !displayName.isEmpty { encoder.writeString(field: 3, displayName) }
        if !description.isEmpty { encoder.writeString(field: 4, description) }
        if dataset != .unknown { encoder.writeInt64(field: 5, dataset.rawValue) }
    }

    /// `MetricName` with an empty `group` (= 1): the metric is in the session's own run.
    private struct MetricName: ProtobufMessage {
        var tag: String
        func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 2, tag)
        }
    }
}
