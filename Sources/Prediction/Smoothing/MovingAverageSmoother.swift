/// A causal moving average of class probabilities over the last K predictions of a stream.
///
/// Prediction `i` becomes the mean of the probability vectors of the predictions among
/// `i − K + 1 ... i` (positions in the array) that hold a person, that is whose status is not
/// ``WindowPrediction/Status/noPerson``. A ``WindowPrediction/Status/noPerson`` prediction is
/// returned unchanged and is left out of every average, so a window without a person (whose
/// probabilities describe zero-filled frames) never drags the mean toward its classes; the
/// average after a stretch without a person covers only the predictions with a person among
/// the last K, so it never reaches back past K predictions (K × stride frames) either.
///
/// The averaged prediction keeps its index and time range; its `labelIndex` is the most probable
/// class of the mean (the first on ties), `label` that class's name, `confidence` its mean
/// probability, and its status is ``WindowPrediction/Status/ok`` when the confidence reaches
/// the threshold and ``WindowPrediction/Status/lowConfidence`` below it. Means are summed in
/// Double and rounded to Float once, so K = 1 returns every probability bit for bit.
///
/// Smoothing of this kind steadies the label before it drives a timer or a repetition counter,
/// as the rehabilitation app does; ``HysteresisFilter`` then removes what flicker remains.
public struct MovingAverageSmoother: Sendable, Equatable {
    /// The number of most recent predictions averaged, K; at least 1 (1 = no smoothing).
    public let window: Int

    /// Creates a smoother over the last `window` predictions.
    /// - Parameter window: K, the number of predictions averaged; at least 1.
    /// - Throws: ``PostprocessingError/invalidParameter(name:value:reason:)`` when `window < 1`.
    public init(window: Int) throws(PostprocessingError) {
        guard window >= 1 else {
            throw .invalidParameter(name: "smoothing window", value: "\(window)", reason: "must be at least 1 prediction")
        }
        self.window = window
    }

    /// The predictions with their probabilities averaged over the last ``window`` predictions.
    ///
    /// - Parameters:
    ///   - predictions: One stream's predictions in time order, each with `[labels.count]` probabilities.
    ///   - classLabels: The model's class names, in the order of the probabilities.
    ///   - settings: The confidence threshold that sets each averaged prediction's status.
    /// - Returns: As many predictions as given, in the same order.
    /// - Throws: ``PostprocessingError/probabilityCountMismatch(predictionIndex:expected:found:)``
    ///   when a prediction's probabilities do not have one value per label.
    public func smoothed(_ predictions: [WindowPrediction], classLabels labels: [String], settings: PredictionSettings) throws(PostprocessingError)
        -> [WindowPrediction]
    {
        for prediction in predictions where prediction.probabilities.count != labels.count {
            throw .probabilityCountMismatch(predictionIndex: prediction.index, expected: labels.count, found: prediction.probabilities.count)
        }
        var result = predictions
        for position in predictions.indices where predictions[position].status != .noPerson {
            var sums = [Double](repeating: 0, count: labels.count)
            var count = 0
            for earlier in max(0, position - window + 1)...position where predictions[earlier].status != .noPerson {
                for (label, probability) in predictions[earlier].probabilities.enumerated() {
                    sums[label] += Double(probability)
                }
                count += 1
            }
            let mean = sums.map { Float($0 / Double(count)) }
            var best = 0
            for label in mean.indices where mean[label] > mean[best] { best = label }
            result[position].probabilities = mean
            result[position].labelIndex = best
            result[position].label = labels.isEmpty ? "" : labels[best]
            result[position].confidence = mean.isEmpty ? 0 : mean[best]
            result[position].status = result[position].confidence >= settings.confidenceThreshold ? .ok : .lowConfidence
        }
        return result
    }
}
