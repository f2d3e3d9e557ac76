import ActionLabTestSupport
import Foundation
import Manifest
@testable import MLflow
import Reports
import Sweeps
import SweepTestSupport
import Testing
import Training

/// A sweep logged to a real `mlflow server` (PyPI's, on a local port, with a SQLite store and
/// proxied artifacts), checked with MLflow's own Python client.
@Suite(.serialized) struct MLflowLoggingTests {
    /// `mlflow server` on a free local port, stopped when the value is released.
    final class Server {
        let uri: String
        private let process = Process()

        init(folder: URL) throws {
            let port = try unusedLocalPort(type: Int32(SOCK_STREAM.rawValue))
            uri = "http://127.0.0.1:\(port)"
            let log = folder.appendingPathComponent("server.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            // Foundation starts the child as the leader of a process group of its own, so that
            // stopping the group ends the web server processes `mlflow server` starts too.
            process.executableURL = URL(fileURLWithPath: PythonOracle.interpreter)
            process.arguments = ["-m", "mlflow", "server", "--host", "127.0.0.1", "--port", "\(port)", "--workers", "1",
                                 "--backend-store-uri", "sqlite:///\(folder.path)/mlflow.db",
                                 "--artifacts-destination", folder.appendingPathComponent("artifacts").path]
            // Without MLflow 3's job runner (eight more Python processes, none needed for tracking).
            process.environment = ProcessInfo.processInfo.environment.merging(["MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"]) { $1 }
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            // The server creates its database, then listens: poll its health endpoint.
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                if process.isRunning, let url = URL(string: "\(uri)/health"), (try? String(contentsOf: url, encoding: .utf8)) != nil { return }
                guard process.isRunning else { break }
                Thread.sleep(forTimeInterval: 0.5)
            }
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            stop()
            throw ServerDidNotStart(log: String(output.suffix(2000)))
        }

        /// SIGTERM to the server's process group, SIGKILL after 10 s.
        func stop() {
            guard process.isRunning else { return }
            let group = -process.processIdentifier
            kill(group, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            if process.isRunning { kill(group, SIGKILL) }
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        var log: String
        var description: String { "mlflow server did not answer within 120 s:\n\(log)" }
    }

    /// What MLflow's client finds: every run of the experiment with tags, params, metric
    /// histories and artifact paths.
    static let reader = """
        import json, sys
        from mlflow.tracking import MlflowClient
        client = MlflowClient(tracking_uri=sys.argv[1])
        experiment = client.get_experiment_by_name(sys.argv[2])
        runs = client.search_runs([experiment.experiment_id], max_results=1000)
        def artifacts(run_id, path=None):
            out = []
            for item in client.list_artifacts(run_id, path):
                out += artifacts(run_id, item.path) if item.is_dir else [item.path]
            return out
        result = []
        for run in runs:
            histories = {key: [[m.step, m.value] for m in client.get_metric_history(run.info.run_id, key)] for key in run.data.metrics}
            result.append({"id": run.info.run_id, "status": run.info.status, "tags": run.data.tags, "params": run.data.params,
                           "metrics": histories, "artifacts": sorted(artifacts(run.info.run_id))})
        print(json.dumps(result))
        """

    struct FoundRun: Decodable {
        var id: String
        var status: String
        var tags: [String: String]
        var params: [String: String]
        var metrics: [String: [[Double]]]
        var artifacts: [String]
    }

    static func runs(_ server: Server, experiment: String) throws -> [FoundRun] {
        let result = try PythonOracle.run(reader, arguments: [server.uri, experiment])
        try #require(result.status == 0, "\(result.errorOutput)")
        return try JSONDecoder().decode([FoundRun].self, from: Data(result.output.utf8))
    }

    /// Every metric value of every run, counted: a duplicate metric logged again would add to it.
    static func metricValueCount(_ runs: [FoundRun]) -> Int {
        var count = 0
        for run in runs {
            for history in run.metrics.values { count += history.count }
        }
        return count
    }

    @Test func sweepIsLoggedOnceWithParamsMetricsAndArtifacts() throws {
        guard try PythonOracle.requireModules(["mlflow"]) else { return }
        let scratch = try TemporaryDirectory(prefix: "mlflow")
        let folder = try RealDataSweeps.basicMotions().folder
        let server = try Server(folder: scratch.url)
        defer { server.stop() }
        let logger = MLflowSweepLogger(client: try MLflowClient(trackingURI: server.uri))
        let record = try SweepRecord(folder: folder)

        let first = try logger.log(sweep: folder, experimentName: "actionlab-test")
        #expect(first.logged == 9 && first.alreadyLogged == 0 && first.unfinished == 0)
        let runs = try Self.runs(server, experiment: "actionlab-test")
        #expect(runs.count == 10)
        let parent = try #require(runs.first { $0.tags["actionlab.kind"] == "sweep" })
        #expect(parent.id == first.parentRunID)
        #expect(parent.status == "FINISHED")
        #expect(parent.params["training.epochs"] == "\(RealDataSweeps.basicMotionsEpochs)")
        #expect(Set(["leaderboard.csv", "summary.md", "resolved.json", "manifest.json5", "sweep.json"]).isSubset(of: parent.artifacts))

        for trial in record.trials {
            let run = try #require(runs.first { $0.tags["actionlab.trial"] == trial.id }, "no run for trial \(trial.id)")
            let trialFolder = folder.appendingPathComponent("trials/\(trial.id)")
            #expect(run.tags["mlflow.parentRunId"] == parent.id)
            #expect(run.tags["actionlab.seed"] == "1")
            #expect(run.tags["actionlab.logged"] == "true")
            #expect(run.tags["actionlab.complete_sha256"]?.count == 64)
            #expect(run.tags["mlflow.source.git.commit"]?.isEmpty == false)
            #expect(run.status == "FINISHED")
            #expect(run.params["seed"] == "1")
            #expect(run.params["training.epochs"] == "\(RealDataSweeps.basicMotionsEpochs)")
            #expect(run.params["model.channels"] == "[8, 8]")
            #expect(run.params["model.kind"] == "tcn")
            // Swept values are parameters under their manifest path, also where the resolved
            // configuration holds them in another form (windows.duration becomes windows.size).
            for value in trial.values {
                let text = value.value.hasPrefix("\"") ? String(value.value.dropFirst().dropLast()) : value.value
                #expect(run.params[value.path] == text, "\(value.path): \(run.params[value.path] ?? "missing") for \(value.value)")
            }
            let history = try RunReport.readHistory(from: trialFolder.appendingPathComponent("curves.csv"))
            #expect(run.metrics["train_loss"]?.map { $0[0] } == history.map { Double($0.epoch) })
            #expect(run.metrics["train_loss"]?.map { $0[1] } == history.map(\.trainLoss))
            #expect(run.metrics["validation_accuracy"]?.map { $0[1] } == history.compactMap(\.validationAccuracy))
            #expect(run.metrics["final_train_loss"]?.map { $0[0] } == [Double(history.count)])
            let outcome = try #require(TrialRunner.outcome(of: trial, in: folder))
            #expect(run.metrics["final_test_accuracy"]?.map { $0[1] } == [try #require(outcome.splits["test"]).accuracy])
            #expect(run.metrics["final_test_sequence_accuracy"]?.map { $0[1] } == [try #require(outcome.splits["test"]).sequenceAccuracy])
            let files = try MLflowSweepLogger.files(in: trialFolder)
            #expect(run.artifacts == files)
            #expect(files.contains("weights.h5") && files.contains("curves.csv") && files.contains("tensorboard/events.out.tfevents.actionlab"))
        }

        // Again: nothing new. Then with one trial's last tag missing, as after a call killed in
        // the middle of that trial: its run is replaced, the others are left alone.
        let second = try logger.log(sweep: folder, experimentName: "actionlab-test")
        #expect(second.logged == 0 && second.alreadyLogged == 9)
        let unchanged = try Self.runs(server, experiment: "actionlab-test")
        #expect(unchanged.count == 10)
        #expect(Self.metricValueCount(unchanged) == Self.metricValueCount(runs))
        let interrupted = try #require(runs.first { $0.tags["actionlab.kind"] == "trial" })
        let untag = try PythonOracle.run(
            "import sys; from mlflow.tracking import MlflowClient; MlflowClient(sys.argv[1]).delete_tag(sys.argv[2], 'actionlab.logged')",
            arguments: [server.uri, interrupted.id])
        try #require(untag.status == 0, "\(untag.errorOutput)")
        let third = try logger.log(sweep: folder, experimentName: "actionlab-test")
        #expect(third.logged == 1 && third.alreadyLogged == 8)
        let after = try Self.runs(server, experiment: "actionlab-test")
        #expect(after.count == 10)
        #expect(!after.contains { $0.id == interrupted.id })
        #expect(after.filter { $0.tags["actionlab.trial"] == interrupted.tags["actionlab.trial"] }.count == 1)

        // Another sweep folder of the same name whose trial has other results (as the same manifest
        // run with another kernel gives; here the logged run's record of them differs): refused
        // before anything is logged or uploaded. Before, it counted as "already there" and its
        // leaderboard replaced the first sweep's on the parent run.
        let other = try #require(after.first { $0.tags["actionlab.kind"] == "trial" })
        let retag = try PythonOracle.run(
            "import sys; from mlflow.tracking import MlflowClient; MlflowClient(sys.argv[1]).set_tag(sys.argv[2], 'actionlab.complete_sha256', '0' * 64)",
            arguments: [server.uri, other.id])
        try #require(retag.status == 0, "\(retag.errorOutput)")
        do {
            _ = try logger.log(sweep: folder, experimentName: "actionlab-test")
            Issue.record("a sweep of the same name with other results was logged")
        } catch let error as MLflowError {
            guard case let .conflictingSweep(sweep, _, trial, runID, marker) = error else { throw error }
            #expect(sweep == folder.lastPathComponent && trial == other.tags["actionlab.trial"] && runID == other.id)
            #expect(marker.hasSuffix("trials/\(trial)/complete.json"))
            #expect(error.description.contains("another sweep folder of the same name"), "\(error)")
        }
        let refused = try Self.runs(server, experiment: "actionlab-test")
        #expect(refused.count == 10 && Self.metricValueCount(refused) == Self.metricValueCount(after))
    }

    /// MLflow takes at most 1,000 metrics, params and tags together in one `runs/log-batch`
    /// request; a trial of more than about 235 epochs (4 metrics each) broke the first request.
    @Test func aBatchOfMoreThanTheLimitIsSplitAcrossRequests() throws {
        let batches = MLflowClient.batches(metrics: Array(0..<2500), params: Array(0..<150), tags: Array(0..<30))
        for batch in batches {
            #expect(batch.metrics.count <= 1000 && batch.params.count <= 100 && batch.tags.count <= 100)
            #expect(batch.metrics.count + batch.params.count + batch.tags.count <= 1000)
        }
        #expect(batches.flatMap(\.metrics) == Array(0..<2500))
        #expect(batches.flatMap(\.params) == Array(0..<150) && batches.flatMap(\.tags) == Array(0..<30))
        #expect(batches.count == 3)

        guard try PythonOracle.requireModules(["mlflow"]) else { return }
        let scratch = try TemporaryDirectory(prefix: "mlflow-batch")
        let server = try Server(folder: scratch.url)
        defer { server.stop() }
        let client = try MLflowClient(trackingURI: server.uri)
        let experiment = try client.experimentID(named: "batch")
        let run = try client.createRun(inExperiment: experiment, name: "long", tags: [], startTime: 1_700_000_000_000)
        // 300 epochs of the 4 curves, as a trial logs them, beside 45 parameters and a tag.
        let metrics = (1...300).flatMap { epoch in
            ["train_loss", "train_accuracy", "validation_loss", "validation_accuracy"].map {
                MLflowMetric(key: $0, value: Double(epoch) / 1000, timestamp: 1_700_000_000_000, step: Int64(epoch))
            }
        }
        let params = (0..<45).map { MLflowKeyValue(key: "p\($0)", value: "\($0)") }
        try client.logBatch(runID: run.id, metrics: metrics, params: params, tags: [MLflowKeyValue(key: "t", value: "x")])
        let found = try #require(try Self.runs(server, experiment: "batch").first)
        #expect(found.params.count == 45 && found.tags["t"] == "x")
        #expect(found.metrics["validation_accuracy"]?.count == 300 && Self.metricValueCount([found]) == 1200)
    }

    @Test func badTrackingURIsAndUnreachableServersAreClearErrors() throws {
        #expect(throws: MLflowError.invalidTrackingURI("localhost:5000")) { try MLflowClient(trackingURI: "localhost:5000") }
        #expect(throws: MLflowError.invalidTrackingURI("file:///tmp/mlruns")) { try MLflowClient(trackingURI: "file:///tmp/mlruns") }
        let port = try unusedLocalPort(type: Int32(SOCK_STREAM.rawValue))
        let client = try MLflowClient(trackingURI: "http://127.0.0.1:\(port)")
        do {
            _ = try client.experimentID(named: "x")
            Issue.record("no error from a port nothing listens on")
        } catch {
            guard case .unreachable(let url, let reason) = error else { Issue.record("\(error)"); return }
            #expect(url.hasPrefix("http://127.0.0.1:\(port)/api/2.0/mlflow/experiments/get-by-name"))
            #expect(reason.contains("connection refused"), "\(reason)")
        }
    }

    /// A server that accepts the connection but never answers (stopped with SIGSTOP): the
    /// message says it timed out, where it said "NSURLErrorDomain error -1001".
    @Test func aServerThatNeverAnswersTimesOutInWords() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound && listen(listener, 4) == 0)
        let port = UInt16(bigEndian: address.sin_port)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/api/2.0/mlflow/experiments/get-by-name"))
        do {
            _ = try HTTPTransport(timeout: 1).send("GET", url, body: nil, contentType: nil)
            Issue.record("an answer from a server that never answers")
        } catch {
            guard case .unreachable(_, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.hasPrefix("no answer within 1 s"), "\(reason)")
        }
    }
}
