/// Where a trial's training is, for progress displays: what ``TrialRunner`` reports as it trains.
///
/// Worker processes write these as JSON lines (`actionlab trial` with
/// ``workerEnvironmentKey`` set) for the parent `actionlab run` to show.
public enum TrialProgress: Sendable, Equatable, Codable {
    /// This process starts training the trial (from its checkpoint, if a killed run left one).
    case started(trial: Int, id: String, seed: Int, label: String, epochs: Int)
    /// `done` of an epoch's `batches` training mini-batches are done.
    case batch(trial: Int, epoch: Int, done: Int, batches: Int)
    /// An epoch finished; validation accuracy nil without a validation set.
    case epoch(trial: Int, epoch: Int, epochs: Int, trainAccuracy: Double, validationAccuracy: Double?)
    /// The trial finished (written to its folder) or failed.
    case finished(trial: Int, succeeded: Bool)

    /// The environment variable that makes `actionlab trial` write its progress to standard
    /// output, one JSON object a line: set by `actionlab run` for its workers.
    public static let workerEnvironmentKey = "ACTIONLAB_PROGRESS_EVENTS"

    /// The trial index the event is about.
    public var trial: Int {
        switch self {
        case .started(let trial, _, _, _, _), .batch(let trial, _, _, _), .epoch(let trial, _, _, _, _), .finished(let trial, _): trial
        }
    }
}
