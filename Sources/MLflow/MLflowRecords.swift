/// A metric value of a run: `Metric` of MLflow's REST API (`key`, `value`, `timestamp` in
/// milliseconds since 1970, `step`).
public struct MLflowMetric: Sendable, Equatable, Codable {
    public var key: String
    public var value: Double
    public var timestamp: Int64
    public var step: Int64

    public init(key: String, value: Double, timestamp: Int64, step: Int64) {
        self.key = key
        self.value = value
        self.timestamp = timestamp
        self.step = step
    }
}

/// A parameter or a tag of a run: `Param` and `RunTag` of MLflow's REST API.
public struct MLflowKeyValue: Sendable, Equatable, Codable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// What a search or a create returns about a run: `RunInfo` (`run_id`, `artifact_uri`) and the
/// run's tags from `RunData`.
public struct MLflowRun: Sendable, Equatable {
    public var id: String
    /// Where the run's artifacts go: `mlflow-artifacts:/<experiment>/<run>/artifacts` when the
    /// server proxies artifacts, a `file:` URI or path otherwise.
    public var artifactURI: String
    public var tags: [String: String]
}
