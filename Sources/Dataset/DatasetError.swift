/// Errors of a dataset that does not fit its configuration: labels, shapes, splits, source files.
public enum DatasetError: Error, CustomStringConvertible, Equatable {
    /// A sequence carries a label that the class list does not have.
    case unknownLabel(String, sequence: String, known: [String])
    /// A sequence's channel or joint count differs from the rest of the data.
    case inconsistentShape(sequence: String, expected: String, found: String)
    /// A split that must not be empty has no windows.
    case emptySplit(String, reason: String)
    /// Source files could not be listed or imported: one message per file, each naming it.
    case sourcesFailed([String])
    /// A source folder holds no file to import.
    case noSourceFiles(path: String, expected: String)
    /// The same file (by content) is used in two roles, such as train and test.
    case dataLeak(first: String, firstRole: String, second: String, secondRole: String)
    /// Keys of `dataset.labels` that match no label in the data.
    case unusedLabelMapping([String], present: [String])
    /// The training data has fewer than two classes.
    case tooFewClasses([String])
    /// Sequences of `split` (validation or test) carry labels no training sequence has: the first
    /// such sequence, and the classes the classifier would have.
    case labelsNotInTraining([String], split: String, sequence: String, classes: [String])
    /// A split groups or selects by a file-name field that a sequence's file does not give.
    case missingField(String, sequence: String, present: [String])
    /// The windows would not fit in memory (or in the window index): how many, of how many
    /// values each, the bytes they need and the limit.
    case tooManyWindows(count: Int, valuesPerWindow: Int, bytes: Double, limit: Double)

    public var description: String {
        switch self {
        case let .unknownLabel(label, sequence, known):
            return "\(sequence): label '\(label)' is not one of the classes \(known) (the training data's labels); drop it "
                + "with dataset.labels: { \(label): null }, or add training data of it"
        case let .inconsistentShape(sequence, expected, found):
            return "\(sequence): keypoints are \(found) but the other sequences are \(expected)"
        case let .emptySplit(split, reason):
            return "the \(split) split has no windows: \(reason)"
        case let .sourcesFailed(messages):
            let count = messages.count
            return "\(count) source file\(count == 1 ? "" : "s") could not be read:\n" + messages.joined(separator: "\n")
        case let .noSourceFiles(path, expected):
            return "\(path): no files to import; expected \(expected)"
        case let .dataLeak(first, firstRole, second, secondRole):
            return "\(second) (\(secondRole)) has the same content as \(first) (\(firstRole)); "
                + "\(secondRole) data must not also be \(firstRole) data"
        case let .unusedLabelMapping(keys, present):
            return "dataset.labels: \(keys.map { "'\($0)'" }.joined(separator: ", ")) match\(keys.count == 1 ? "es" : "") no label in the data "
                + "(labels: \(present.map { "'\($0)'" }.joined(separator: ", ")))"
        case let .tooFewClasses(labels):
            return "the training data has \(labels.count) class\(labels.count == 1 ? "" : "es") (\(labels.joined(separator: ", "))); "
                + "a classifier needs at least two"
        case let .labelsNotInTraining(labels, split, sequence, classes):
            let names = labels.map { "'\($0)'" }.joined(separator: ", ")
            return "the \(split) data has label\(labels.count == 1 ? "" : "s") \(names) (\(sequence) is one) that no training "
                + "sequence has (classes: \(classes.joined(separator: ", "))), so the classifier cannot predict "
                + "\(labels.count == 1 ? "it" : "them"); drop \(labels.count == 1 ? "it" : "them") with dataset.labels: "
                + "{ \(labels.map { "\($0): null" }.joined(separator: ", ")) }, or add training data of \(labels.count == 1 ? "it" : "them")"
        case let .missingField(field, sequence, present):
            return "\(sequence): its file name gives no field '\(field)' (fields: \(present.isEmpty ? "none" : present.joined(separator: ", "))); "
                + "dataset.validation.groupBy and dataset.test.where need it in every training file"
        case let .tooManyWindows(count, valuesPerWindow, bytes, limit):
            func gigabytes(_ value: Double) -> String { String(format: "%.1f GB", value / 1e9) }
            return "the data gives \(count) windows of \(valuesPerWindow) values, \(gigabytes(bytes)) as float32, more than the "
                + "\(gigabytes(limit)) this process may hold; raise windows.stride, or lower windows.frameRate (a source recorded "
                + "at a lower rate is resampled up to it) or windows.size"
        }
    }
}
