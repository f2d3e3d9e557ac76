/// Why talking to an MLflow tracking server failed.
public enum MLflowError: Error, Equatable, CustomStringConvertible {
    /// The tracking URI is not an `http://` or `https://` URL.
    case invalidTrackingURI(String)
    /// The server could not be reached (connection refused, timeout, DNS).
    case unreachable(url: String, reason: String)
    /// The server answered with an error: the HTTP status and MLflow's `error_code` and `message`
    /// (the REST API's error body), or the start of the body when it is not MLflow's JSON.
    case requestFailed(endpoint: String, status: Int, code: String, message: String)
    /// The server's answer lacked a field the REST API documents.
    case unexpectedResponse(endpoint: String, reason: String)
    /// A run's artifact location is one this client cannot write to.
    case unsupportedArtifactStore(runID: String, uri: String)
    /// A file of the sweep folder could not be read.
    case unreadableFile(path: String, reason: String)
    /// The experiment already holds a sweep of this folder's name whose trial has other results
    /// (another folder of the same name): the sweep's name, the experiment, the trial, the run
    /// that logged it, and this folder's completion marker of it.
    case conflictingSweep(sweep: String, experimentID: String, trial: String, runID: String, marker: String)

    public var description: String {
        switch self {
        case .invalidTrackingURI(let uri):
            "'\(uri)' is not a tracking server URL: give http://HOST:PORT (the address `mlflow server` prints)"
        case let .unreachable(url, reason):
            "cannot reach the MLflow server at \(url): \(reason)"
        case let .requestFailed(endpoint, status, code, message):
            "MLflow \(endpoint) failed with HTTP \(status)\(code.isEmpty ? "" : " \(code)"): \(message)"
        case let .unexpectedResponse(endpoint, reason):
            "MLflow \(endpoint) gave an unexpected answer: \(reason)"
        case let .unsupportedArtifactStore(runID, uri):
            "run \(runID) stores artifacts at '\(uri)', which ActionLab cannot write to: start the server with "
                + "artifact proxying (`mlflow server`'s default, `--serve-artifacts`) or give a local file: location"
        case let .unreadableFile(path, reason):
            "cannot read \(path): \(reason)"
        case let .conflictingSweep(sweep, experimentID, trial, runID, marker):
            "MLflow experiment \(experimentID) already holds a sweep named '\(sweep)' whose trial \(trial) (run \(runID)) has other "
                + "results than \(marker): this is another sweep folder of the same name (the same manifest run on another machine, "
                + "version or kernel); nothing was logged. Log it to another experiment (--experiment NAME) or rename its folder"
        }
    }
}
