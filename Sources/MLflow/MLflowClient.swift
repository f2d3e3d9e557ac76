import AtomicFiles
import Foundation

/// A client of an MLflow tracking server's REST API, the calls ActionLab needs.
///
/// Endpoints and limits from MLflow's REST API reference
/// (<https://mlflow.org/docs/latest/api_reference/rest-api.html>): `experiments/get-by-name`,
/// `experiments/create`, `runs/search`, `runs/create`, `runs/log-batch` (at most 1,000 metrics,
/// 100 parameters and 100 tags a request, and 1,000 of the three together), `runs/update`,
/// `runs/delete`, all under
/// `/api/2.0/mlflow/`; artifacts through the server's proxy, `PUT
/// /api/2.0/mlflow-artifacts/artifacts/<path>`. Every call is synchronous.
public struct MLflowClient: Sendable {
    /// The server's base URL, such as `http://127.0.0.1:5000`.
    public let trackingURI: URL
    private let transport = HTTPTransport()

    /// Metrics, parameters and tags a `runs/log-batch` request may hold, each and all together.
    static let batchLimits = (metrics: 1000, params: 100, tags: 100, total: 1000)

    /// The `runs/log-batch` requests that log `metrics`, `params` and `tags` within
    /// ``batchLimits``, in order: parameters and tags first, metrics filling the rest of each
    /// request. Before, a request held up to 1,000 metrics besides its parameters and tags, which
    /// MLflow refuses ("at most 1000 metrics, params, and tags"): a trial of more than about 235
    /// epochs could not be logged.
    static func batches<Metric, KeyValue>(
        metrics: [Metric], params: [KeyValue], tags: [KeyValue]
    ) -> [(metrics: ArraySlice<Metric>, params: ArraySlice<KeyValue>, tags: ArraySlice<KeyValue>)] {
        var metrics = metrics[...], params = params[...], tags = tags[...]
        var batches: [(metrics: ArraySlice<Metric>, params: ArraySlice<KeyValue>, tags: ArraySlice<KeyValue>)] = []
        while !metrics.isEmpty || !params.isEmpty || !tags.isEmpty {
            let p = params.prefix(batchLimits.params), t = tags.prefix(batchLimits.tags)
            let m = metrics.prefix(min(batchLimits.metrics, batchLimits.total - p.count - t.count))
            metrics = metrics.dropFirst(m.count)
            params = params.dropFirst(p.count)
            tags = tags.dropFirst(t.count)
            batches.append((m, p, t))
        }
        return batches
    }

    /// Creates a client.
    /// - Parameter trackingURI: `http://HOST:PORT` or `https://…`, optionally with a path prefix.
    /// - Throws: ``MLflowError/invalidTrackingURI(_:)`` for anything else.
    public init(trackingURI: String) throws(MLflowError) {
        let trimmed = trackingURI.hasSuffix("/") ? String(trackingURI.dropLast()) : trackingURI
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else {
            throw .invalidTrackingURI(trackingURI)
        }
        self.trackingURI = url
    }

    /// The id of the experiment named `name`, creating it if there is none.
    /// - Throws: ``MLflowError`` if a request fails.
    public func experimentID(named name: String) throws(MLflowError) -> String {
        let endpoint = "experiments/get-by-name"
        var components = URLComponents(url: api(endpoint), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "experiment_name", value: name)]
        guard let url = components?.url else { throw .invalidTrackingURI(trackingURI.absoluteString) }
        let response = try transport.send("GET", url, body: nil, contentType: nil)
        if response.status == 200 {
            let found: ExperimentResponse = try decode(response, endpoint)
            return found.experiment.experiment_id
        }
        let failure = Self.failure(endpoint, response)
        guard case let .requestFailed(_, _, code, _) = failure, code == "RESOURCE_DOES_NOT_EXIST" else { throw failure }
        struct Created: Decodable { var experiment_id: String }
        let created: Created = try post("experiments/create", ["name": name])
        return created.experiment_id
    }

    /// The active runs of an experiment whose tag `key` equals `value`.
    /// - Throws: ``MLflowError`` if a request fails.
    public func runs(inExperiment experimentID: String, taggedWith key: String, equalTo value: String) throws(MLflowError) -> [MLflowRun] {
        let quoted = value.replacingOccurrences(of: "'", with: "\\'")
        var runs: [MLflowRun] = []
        var pageToken: String?
        repeat {
            var body: [String: Any] = [
                "experiment_ids": [experimentID], "filter": "tags.`\(key)` = '\(quoted)'", "max_results": 1000, "run_view_type": "ACTIVE_ONLY",
            ]
            if let pageToken { body["page_token"] = pageToken }
            let page: SearchResponse = try post("runs/search", body)
            runs += (page.runs ?? []).map(\.run)
            pageToken = page.next_page_token.flatMap { $0.isEmpty ? nil : $0 }
        } while pageToken != nil
        return runs
    }

    /// Creates a run.
    /// - Parameters:
    ///   - name: The run's name (`run_name`).
    ///   - startTime: Milliseconds since 1970.
    /// - Throws: ``MLflowError`` if the request fails.
    public func createRun(inExperiment experimentID: String, name: String, tags: [MLflowKeyValue], startTime: Int64) throws(MLflowError) -> MLflowRun {
        let created: CreateRunResponse = try post("runs/create", [
            "experiment_id": experimentID, "run_name": name, "start_time": startTime,
            "tags": tags.map { ["key": $0.key, "value": $0.value] },
        ])
        return created.run.run
    }

    /// Logs metrics, parameters and tags, in as many `runs/log-batch` requests as the limits need.
    /// - Throws: ``MLflowError`` if a request fails (MLflow refuses a parameter whose value differs
    ///   from the one logged before).
    public func logBatch(runID: String, metrics: [MLflowMetric] = [], params: [MLflowKeyValue] = [], tags: [MLflowKeyValue] = []) throws(MLflowError) {
        for (m, p, t) in Self.batches(metrics: metrics, params: params, tags: tags) {
            let _: Empty = try post("runs/log-batch", [
                "run_id": runID,
                "metrics": m.map { ["key": $0.key, "value": $0.value, "timestamp": $0.timestamp, "step": $0.step] as [String: Any] },
                "params": p.map { ["key": $0.key, "value": $0.value] },
                "tags": t.map { ["key": $0.key, "value": $0.value] },
            ])
        }
    }

    /// Marks a run finished (or failed) at `endTime` (milliseconds since 1970).
    public func finishRun(_ runID: String, succeeded: Bool, endTime: Int64) throws(MLflowError) {
        let _: Empty = try post("runs/update", ["run_id": runID, "status": succeeded ? "FINISHED" : "FAILED", "end_time": endTime])
    }

    /// Deletes a run (MLflow keeps it, marked deleted, out of searches of active runs).
    public func deleteRun(_ runID: String) throws(MLflowError) {
        let _: Empty = try post("runs/delete", ["run_id": runID])
    }

    /// Uploads `data` as the artifact `path` (relative, `/`-separated) of `run`, replacing one of that name.
    /// - Throws: ``MLflowError/unsupportedArtifactStore(runID:uri:)`` unless the run's artifact URI
    ///   is the server's proxy (`mlflow-artifacts:`) or a local `file:` location; request and file errors.
    public func uploadArtifact(_ data: Data, path: String, to run: MLflowRun) throws(MLflowError) {
        let uri = run.artifactURI
        if uri.hasPrefix("mlflow-artifacts:") {
            // `mlflow-artifacts:/1/<run>/artifacts` or `mlflow-artifacts://host:port/1/<run>/artifacts`.
            var location = String(uri.dropFirst("mlflow-artifacts:".count))
            if location.hasPrefix("//") {
                location = String(location.dropFirst(2))
                location = location.firstIndex(of: "/").map { String(location[$0...]) } ?? "/"
            }
            let relative = (location.split(separator: "/").map(String.init) + path.split(separator: "/").map(String.init))
                .map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0 }.joined(separator: "/")
            guard let url = URL(string: trackingURI.absoluteString + "/api/2.0/mlflow-artifacts/artifacts/" + relative) else {
                throw .unsupportedArtifactStore(runID: run.id, uri: uri)
            }
            let response = try transport.send("PUT", url, body: data, contentType: "application/octet-stream")
            guard (200..<300).contains(response.status) else { throw Self.failure("mlflow-artifacts PUT \(path)", response) }
        } else if let folder = Self.localFolder(uri) {
            let file = folder.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: file, options: .atomic)
            } catch {
                throw .unreadableFile(path: file.path, reason: "cannot write the artifact: \(FileErrorReason.of(error))")
            }
        } else {
            throw .unsupportedArtifactStore(runID: run.id, uri: uri)
        }
    }

    /// The folder of a `file:` URI or an absolute path.
    static func localFolder(_ uri: String) -> URL? {
        if uri.hasPrefix("/") { return URL(fileURLWithPath: uri, isDirectory: true) }
        if uri.hasPrefix("file:"), let url = URL(string: uri), url.isFileURL { return url }
        return nil
    }

    // MARK: - Requests

    private func api(_ endpoint: String) -> URL {
        trackingURI.appendingPathComponent("api/2.0/mlflow").appendingPathComponent(endpoint)
    }

    private func post<Answer: Decodable>(_ endpoint: String, _ body: [String: Any]) throws(MLflowError) -> Answer {
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        } catch {
            throw .unexpectedResponse(endpoint: endpoint, reason: "the request could not be encoded: \(error)")
        }
        let response = try transport.send("POST", api(endpoint), body: data, contentType: "application/json")
        guard response.status == 200 else { throw Self.failure(endpoint, response) }
        return try decode(response, endpoint)
    }

    private func decode<Answer: Decodable>(_ response: HTTPTransport.Response, _ endpoint: String) throws(MLflowError) -> Answer {
        do {
            return try JSONDecoder().decode(Answer.self, from: response.body.isEmpty ? Data("{}".utf8) : response.body)
        } catch {
            throw .unexpectedResponse(endpoint: endpoint, reason: "\(error)")
        }
    }

    /// The error of an answer that is not 200: MLflow's `{"error_code", "message"}` when the body is that.
    static func failure(_ endpoint: String, _ response: HTTPTransport.Response) -> MLflowError {
        struct Body: Decodable { var error_code: String?; var message: String? }
        if let body = try? JSONDecoder().decode(Body.self, from: response.body), body.error_code != nil || body.message != nil {
            return .requestFailed(endpoint: endpoint, status: response.status, code: body.error_code ?? "", message: body.message ?? "")
        }
        let text = String(decoding: response.body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return .requestFailed(endpoint: endpoint, status: response.status, code: "", message: text.isEmpty ? "(no body)" : text)
    }

    // MARK: - Answers (field names as the REST API spells them)

    private struct Empty: Decodable {}
    private struct ExperimentResponse: Decodable {
        struct Experiment: Decodable { var experiment_id: String }
        var experiment: Experiment
    }
    private struct RunPayload: Decodable {
        struct Info: Decodable { var run_id: String; var artifact_uri: String? }
        struct Data: Decodable { var tags: [MLflowKeyValue]? }
        var info: Info
        var data: Data?
        var run: MLflowRun {
            MLflowRun(
                id: info.run_id, artifactURI: info.artifact_uri ?? "",
                tags: Dictionary((data?.tags ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }))
        }
    }
    private struct SearchResponse: Decodable {
        var runs: [RunPayload]?
        var next_page_token: String?
    }
    private struct CreateRunResponse: Decodable { var run: RunPayload }
}
