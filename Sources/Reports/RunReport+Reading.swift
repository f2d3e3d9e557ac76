import Foundation
import Training

extension RunReport {
    /// Reads a run's `curves.csv` back into its epoch records.
    ///
    /// The inverse of ``curvesTable``: columns `epoch, train_loss, train_accuracy,
    /// validation_loss, validation_accuracy`, validation cells empty without validation data.
    /// - Parameter url: The `curves.csv` file.
    /// - Returns: One record per epoch, in file order.
    /// - Throws: `ReportError.unreadableReport` naming the file if it is missing, is not
    ///   CSV, lacks a column or holds a cell that is not a number.
    public static func readHistory(from url: URL) throws -> [EpochRecord] {
        let table = try readTable(url)
        let names = ["epoch", "train_loss", "train_accuracy", "validation_loss", "validation_accuracy"]
        let columns = try names.map { name in
            guard let index = table.column(named: name) else {
                throw ReportError.unreadableReport(path: url.path, reason: "no column '\(name)'")
            }
            return index
        }
        return try table.rows.enumerated().map { offset, row in
            func number(_ column: Int, optional: Bool = false) throws -> Double? {
                let cell = row[columns[column]]
                if optional && cell.isEmpty { return nil }
                guard let value = Double(cell) else {
                    throw ReportError.unreadableReport(
                        path: url.path, reason: "row \(offset + 1), column '\(names[column])': '\(cell)' is not a number")
                }
                return value
            }
            guard let epoch = Int(row[columns[0]]) else {
                throw ReportError.unreadableReport(path: url.path, reason: "row \(offset + 1): epoch '\(row[columns[0]])' is not a whole number")
            }
            return EpochRecord(
                epoch: epoch, trainLoss: try number(1) ?? 0, trainAccuracy: try number(2) ?? 0,
                validationLoss: try number(3, optional: true), validationAccuracy: try number(4, optional: true))
        }
    }

    /// Reads a `confusion_<split>.csv` file (rows true labels, columns predicted labels) back
    /// into a confusion matrix; the inverse of ``confusionTable(_:)``.
    /// - Parameter url: The CSV file.
    /// - Returns: The matrix.
    /// - Throws: `ReportError.unreadableReport` naming the file if it is missing, is not
    ///   CSV, is not square with the same labels on both axes, or holds a cell that is not a
    ///   count.
    public static func readConfusion(from url: URL) throws -> ConfusionMatrix {
        let table = try readTable(url)
        let labels = Array(table.header.dropFirst())
        guard table.rows.map({ $0.first ?? "" }) == labels else {
            throw ReportError.unreadableReport(
                path: url.path, reason: "row labels \(table.rows.map { $0.first ?? "" }) differ from column labels \(labels)")
        }
        let counts = try table.rows.map { row in
            try row.dropFirst().map { cell in
                guard let count = Int(cell), count >= 0 else {
                    throw ReportError.unreadableReport(path: url.path, reason: "'\(cell)' is not a count")
                }
                return count
            }
        }
        guard let matrix = ConfusionMatrix(labels: labels, counts: counts) else {
            throw ReportError.unreadableReport(path: url.path, reason: "the matrix is not square")
        }
        return matrix
    }

    /// A CSV report file as a table, with missing files and syntax errors named.
    static func readTable(_ url: URL) throws -> Table {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ReportError.unreadableReport(path: url.path, reason: ReportError.reason(error))
        }
        do {
            return try Table.parse(csv: text)
        } catch {
            throw ReportError.unreadableReport(path: url.path, reason: "\(error)")
        }
    }
}
