import Foundation
import MLflow

/// `actionlab mlflow DIR [--tracking-uri URI] [--experiment NAME]`: logs a sweep folder's finished
/// trials to an MLflow tracking server through its REST API, the sweep as a parent run with the
/// trials nested; a second call adds nothing twice.
enum MLflowCommand: Subcommand {
    static let sweep = PositionalArgument("DIR", help: "a sweep folder (actionlab run's output)")
    static let trackingURI = CommandOption.text(
        "tracking-uri", valueName: "URI",
        help: "the tracking server, http://HOST:PORT (default: the environment's MLFLOW_TRACKING_URI, as MLflow's own client)")
    static let experiment = CommandOption.text(
        "experiment", valueName: "NAME", help: "the MLflow experiment to log into, created if missing (default: the manifest's name)")

    static let specification = CommandSpecification(
        name: "mlflow",
        abstract: "log a sweep folder's finished trials to an MLflow tracking server: the sweep as a parent run, each "
            + "trial nested in it with its resolved configuration as parameters, per-epoch and final metrics, tags and "
            + "its files as artifacts; trials already logged are left alone, so it can run again as trials finish",
        arguments: [sweep], options: [trackingURI, experiment])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let folder = URL(fileURLWithPath: try parsed.value(of: sweep), isDirectory: true)
            guard let uri = try parsed.value(of: trackingURI) ?? ProcessInfo.processInfo.environment["MLFLOW_TRACKING_URI"] else {
                throw UsageError("missing --tracking-uri URI (or MLFLOW_TRACKING_URI): the MLflow server to log to, http://HOST:PORT")
            }
            let logger = MLflowSweepLogger(client: try MLflowClient(trackingURI: uri), log: Console.progress)
            let summary = try logger.log(sweep: folder, experimentName: try parsed.value(of: experiment))
            Console.progress("MLflow experiment \(summary.experimentID), sweep run \(summary.parentRunID): \(summary.logged) trial"
                + "\(summary.logged == 1 ? "" : "s") logged, \(summary.alreadyLogged) already there, \(summary.unfinished) unfinished")
            print(summary.parentRunID)
        }
    }
}
