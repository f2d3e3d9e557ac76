/// Errors of a sweep folder, its manifest and its trials.
public enum SweepError: Error, CustomStringConvertible, Equatable {
    /// The manifest file cannot be read as text.
    case unreadableManifest(path: String, reason: String)
    /// A folder given as a sweep is not one.
    case notASweep(path: String, reason: String)
    /// An existing sweep folder holds other trials than the manifest plans.
    case sweepMismatch(path: String, reason: String)
    /// Trials failed; the others finished and are in the leaderboard. One message per trial.
    case trialsFailed([String])
    /// A trial index outside the sweep.
    case noSuchTrial(index: Int, count: Int)
    /// A folder given to compare is not a sweep folder with finished trials nor a finished trial folder.
    case notComparable(path: String, reason: String)
    /// A Slurm file of a sweep or extraction job folder (`slurm/submissions.json`,
    /// `extraction.json`) cannot be used, or a new job folder is not empty.
    case slurmRecord(path: String, reason: String)
    /// A trial's `scores/<split>.csv` cannot be read or does not fit the other streams' files.
    case windowScores(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadableManifest(path, reason):
            return "manifest \(path): \(reason)"
        case let .notASweep(path, reason):
            return "\(path) is not a sweep folder: \(reason)"
        case let .sweepMismatch(path, reason):
            return "\(path): \(reason)"
        case let .trialsFailed(messages):
            return "\(messages.count) trial\(messages.count == 1 ? "" : "s") failed:\n" + messages.joined(separator: "\n")
        case let .noSuchTrial(index, count):
            return "no trial \(index): the sweep has trials 0 to \(count - 1)"
        case let .notComparable(path, reason):
            return "\(path): cannot compare: \(reason)"
        case let .slurmRecord(path, reason):
            return "\(path): \(reason)"
        case let .windowScores(path, reason):
            return "\(path): \(reason)"
        }
    }
}
