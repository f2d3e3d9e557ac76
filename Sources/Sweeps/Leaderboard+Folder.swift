import Foundation

extension Leaderboard {
    /// The leaderboard of the trials that have finished in a sweep folder.
    ///
    /// Reads each trial's completion marker `complete.json` and, where present, its
    /// `timing.json`; unfinished trials are left out.
    /// - Parameters:
    ///   - plan: The sweep (from its `sweep.json`).
    ///   - folder: The sweep folder.
    public init(plan: SweepPlan, folder: URL) {
        let outcomes = plan.trials.compactMap { TrialRunner.outcome(of: $0, in: folder, verifyingTensors: false) }
        var timings: [String: TrialTiming] = [:]
        for outcome in outcomes {
            let url = folder.appendingPathComponent("trials/\(outcome.id)/timing.json")
            if let data = try? Data(contentsOf: url), let timing = try? JSONDecoder().decode(TrialTiming.self, from: data) {
                timings[outcome.id] = timing
            }
        }
        self.init(metric: plan.sweep.selection, parameters: plan.sweep.axes.map(\.path), outcomes: outcomes, timings: timings)
    }

    /// Number of finished trials over all rows.
    public var finishedTrials: Int {
        rows.reduce(0) { $0 + $1.outcomes.count }
    }
}
