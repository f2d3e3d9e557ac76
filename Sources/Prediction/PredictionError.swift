/// Why a prediction could not be made; each case names the model, input or setting concerned.
public enum PredictionError: Error, Equatable, CustomStringConvertible {
    /// A setting is outside its range (`--stride 0`, `--threshold 1.5`).
    case invalidSetting(name: String, value: String, expected: String)
    /// A setting the model needs was not given (`--window-duration` for a uniform-sampling model).
    case missingSetting(name: String, expected: String)
    /// The model's layout does not fit the input's (a sensor model on a video).
    case layoutMismatch(model: String, modelLayout: String, input: String, inputLayout: String)
    /// The model's labels and its output width disagree.
    case labelCountMismatch(labels: Int, outputs: Int)
    /// A pose frame could not be used (wrong size, time not increasing, a non-finite value).
    case invalidFrame(input: String, frame: Int, reason: String)

    public var description: String {
        switch self {
        case let .invalidSetting(name, value, expected):
            "\(name) \(value) is not allowed: expected \(expected)"
        case let .missingSetting(name, expected):
            "\(name) is needed: \(expected)"
        case let .layoutMismatch(model, modelLayout, input, inputLayout):
            "\(input): its poses are in the '\(inputLayout)' layout, but the model \(model) was trained on '\(modelLayout)'; "
                + "predict with a model trained on this kind of input"
        case let .labelCountMismatch(labels, outputs):
            "the model has \(labels) labels but \(outputs) outputs"
        case let .invalidFrame(input, frame, reason):
            "\(input): frame \(frame): \(reason)"
        }
    }
}
