import AtomicFiles
import Foundation
import Reports
import Training

extension WindowScores {
    /// The folder of a trial that holds one `<split>.csv` per scored split.
    public static let folderName = "scores"

    /// The prefix of a class's probability column, as in `predict`'s `predictions.csv`: a class
    /// named `label` or `window` would otherwise repeat a fixed column's name.
    static let probabilityColumnPrefix = "p:"

    /// `scores/<split>.csv`, one row per window: `window` (0-based), `recording` and
    /// `recording_label` (the window's sequence and its label), `label` (the window's true
    /// class), then one column per class with its probability, `p:<class>`, in the model's
    /// output order. Probabilities are written as the shortest text that reads back to the same `Float`.
    public var csvTable: Table {
        var table = Table(header: ["window", "recording", "recording_label", "label"] + labels.map { Self.probabilityColumnPrefix + $0 })
        let classCount = labels.count
        for window in 0..<count {
            let sequence = sequenceIndices[window]
            table.append(
                ["\(window)", sequenceIDs[sequence], labels[sequenceLabelIndices[sequence]], labels[labelIndices[window]]]
                    + probabilities[(window * classCount)..<((window + 1) * classCount)].map { "\($0)" })
        }
        return table
    }

    /// How far a window's probabilities may sum from 1 (float32 rounding of a softmax over many
    /// classes stays far below it).
    static let sumTolerance: Float = 1e-3

    /// Reads a file written from ``csvTable``, checking every cell.
    ///
    /// - Parameter url: The file.
    /// - Throws: ``SweepError/windowScores(path:reason:)`` naming the file and the line of the
    ///   first problem: unreadable, not CSV, another header, a label not in the header, a
    ///   recording with two labels, a probability that is not a number in [0, 1], a window whose
    ///   probabilities do not sum to 1. Files written before the class columns had their `p:`
    ///   prefix (2026-12-07) read as well.
    public init(contentsOf url: URL) throws {
        func failure(_ reason: String) -> SweepError { .windowScores(path: url.path, reason: reason) }
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch { throw failure("cannot be read: \(FileErrorReason.of(error))") }
        let table: Table
        do { table = try Table.parse(csv: text) } catch { throw failure("\(error)") }
        let fixed = ["window", "recording", "recording_label", "label"]
        guard table.header.count > fixed.count + 1, Array(table.header.prefix(fixed.count)) == fixed else {
            throw failure("line 1: expected the columns \(fixed.joined(separator: ", ")) and at least two classes, found \(table.header)")
        }
        let columns = Array(table.header.dropFirst(fixed.count))
        let prefix = Self.probabilityColumnPrefix
        let labels = columns.allSatisfy { $0.hasPrefix(prefix) } ? columns.map { String($0.dropFirst(prefix.count)) } : columns
        let labelIndex = Dictionary(labels.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        guard labelIndex.count == labels.count else { throw failure("line 1: a class is named twice in \(labels)") }
        var probabilities: [Float] = []
        probabilities.reserveCapacity(table.rows.count * labels.count)
        var (labelIndices, sequenceIndices, sequenceIDs, sequenceLabels) = ([Int](), [Int](), [String](), [Int]())
        var sequenceIndex: [String: Int] = [:]
        for (offset, row) in table.rows.enumerated() {
            let line = offset + 2
            guard row[0] == "\(offset)" else { throw failure("line \(line): window '\(row[0])', expected \(offset)") }
            guard let label = labelIndex[row[3]], let recordingLabel = labelIndex[row[2]] else {
                throw failure("line \(line): label '\(row[3])' or recording label '\(row[2])' is not one of the classes \(labels)")
            }
            if let known = sequenceIndex[row[1]] {
                guard sequenceLabels[known] == recordingLabel else {
                    throw failure("line \(line): recording '\(row[1])' has label '\(row[2])' here and '\(labels[sequenceLabels[known]])' before")
                }
                sequenceIndices.append(known)
            } else {
                sequenceIndex[row[1]] = sequenceIDs.count
                sequenceIndices.append(sequenceIDs.count)
                sequenceIDs.append(row[1])
                sequenceLabels.append(recordingLabel)
            }
            labelIndices.append(label)
            var sum = 0.0
            for (column, cell) in row.dropFirst(fixed.count).enumerated() {
                guard let value = Float(cell), value.isFinite, value >= 0, value <= 1 + Self.sumTolerance else {
                    throw failure("line \(line), column '\(labels[column])': '\(cell)' is not a probability")
                }
                probabilities.append(value)
                sum += Double(value)
            }
            guard abs(sum - 1) <= Double(Self.sumTolerance) else {
                throw failure("line \(line): the class probabilities sum to \(sum), not 1")
            }
        }
        self.init(
            labels: labels, probabilities: probabilities, labelIndices: labelIndices, sequenceIndices: sequenceIndices,
            sequenceIDs: sequenceIDs, sequenceLabelIndices: sequenceLabels)
    }
}
