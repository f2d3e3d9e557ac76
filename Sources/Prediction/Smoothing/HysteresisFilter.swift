/// A hysteresis rule over accepted labels: a label must hold for M consecutive predictions to
/// start a segment, and a different label (or no action) must hold for M to end it.
///
/// The exact rule. Split the labels into runs of equal consecutive values (nil, no action, is a
/// value like any other). The filter has a state, the current label, which starts as nil. Runs
/// are taken in order:
/// - a run whose value equals the state keeps it;
/// - a run of another value that is at least M predictions long becomes the new state, from the
///   run's first prediction on (the change is dated back to where the new label began, so
///   segments start and end where the labels changed, not M − 1 predictions later);
/// - a shorter run of another value is replaced by the state (it is flicker).
///
/// So `A A A B A A` with M = 2 gives `A A A A A A`, `nil A nil nil` with M = 2 gives
/// `nil nil nil nil`, and M = 1 returns its input. Dating the change back needs the M
/// predictions that confirm it, so a live display that applies it lags M − 1 predictions
/// (M − 1 strides) behind the stream.
public struct HysteresisFilter: Sendable, Equatable {
    /// M, the number of consecutive predictions a label must hold to start or end a segment; at least 1.
    public let holdCount: Int

    /// Creates the filter.
    /// - Parameter holdCount: M, in predictions; at least 1 (1 = no filtering).
    /// - Throws: ``PostprocessingError/invalidParameter(name:value:reason:)`` when `holdCount < 1`.
    public init(holdCount: Int) throws(PostprocessingError) {
        guard holdCount >= 1 else {
            throw .invalidParameter(name: "hysteresis hold count", value: "\(holdCount)", reason: "must be at least 1 prediction")
        }
        self.holdCount = holdCount
    }

    /// The labels after the hysteresis rule.
    /// - Parameter labels: One label per prediction in time order; nil where no action is accepted.
    /// - Returns: As many labels as given.
    public func filtered(_ labels: [String?]) -> [String?] {
        var result = labels
        var state: String? = nil
        var runStart = labels.startIndex
        while runStart < labels.endIndex {
            let value = labels[runStart]
            var runEnd = runStart + 1
            while runEnd < labels.endIndex, labels[runEnd] == value { runEnd += 1 }
            if value != state, runEnd - runStart >= holdCount { state = value }
            for position in runStart..<runEnd { result[position] = state }
            runStart = runEnd
        }
        return result
    }

    /// The accepted labels (``WindowPrediction/acceptedLabel``) of `predictions` after the hysteresis rule.
    /// - Parameter predictions: One stream's predictions in time order.
    /// - Returns: One label per prediction; nil where no action holds.
    public func filtered(_ predictions: [WindowPrediction]) -> [String?] {
        filtered(predictions.map(\.acceptedLabel))
    }
}
