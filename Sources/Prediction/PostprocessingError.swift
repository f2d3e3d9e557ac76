/// Why smoothing, segmenting, counting or scoring predictions could not be done.
public enum PostprocessingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A parameter is out of range (a window of 0 predictions, a negative refractory time, ...).
    case invalidParameter(name: String, value: String, reason: String)
    /// Two arrays that must describe the same predictions or frames differ in length.
    case lengthMismatch(what: String, expected: Int, found: Int)
    /// A prediction's probabilities do not match the model's labels.
    case probabilityCountMismatch(predictionIndex: Int, expected: Int, found: Int)
    /// A label that is not one of the model's labels.
    case unknownLabel(String, known: [String])
    /// A pose sequence whose shape does not fit the skeleton layout it is read with.
    case layoutMismatch(layout: String, expectedChannels: Int, expectedJoints: Int, foundChannels: Int, foundJoints: Int)

    public var description: String {
        switch self {
        case let .invalidParameter(name, value, reason):
            return "\(name) = \(value): \(reason)"
        case let .lengthMismatch(what, expected, found):
            return "\(what): expected \(expected) values, found \(found)"
        case let .probabilityCountMismatch(index, expected, found):
            return "prediction \(index) has \(found) class probabilities, but the model has \(expected) labels"
        case let .unknownLabel(label, known):
            return "unknown label '\(label)' (the model's labels: \(known.joined(separator: ", ")))"
        case let .layoutMismatch(layout, expectedChannels, expectedJoints, foundChannels, foundJoints):
            return """
                the pose sequence is [T, \(foundChannels), \(foundJoints)], but layout '\(layout)' is \
                [T, \(expectedChannels), \(expectedJoints)]
                """
        }
    }
}
