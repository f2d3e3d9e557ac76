import Foundation
import Reports

/// One row per configuration (grid cell) of a sweep, with every score as mean ± standard
/// deviation over the cell's finished seeds, sorted by the selection metric (mean over seeds);
/// ties go to the lower mean validation loss, then to grid order.
public struct Leaderboard: Sendable {
    /// One configuration.
    public struct Row: Sendable {
        /// The grid cell.
        public var cell: Int
        /// Its swept values.
        public var values: [Trial.SweptValue]
        /// Its finished trials, in seed order.
        public var outcomes: [TrialOutcome]
        /// Its trials' timings, same order (nil where `timing.json` is missing).
        public var timings: [TrialTiming?]
        /// Mean of the selection metric over the seeds; nil if no seed has it.
        public var selection: Double?

        /// The finished trials whose loss became non-finite (not scored, so not in the means).
        public var diverged: [TrialOutcome] { outcomes.filter { $0.diverged != nil } }

        /// The seeds column of the Markdown table: `3`, or `3 (1 diverged)`.
        var seedsText: String {
            "\(outcomes.count)" + (diverged.isEmpty ? "" : " (\(diverged.count) diverged)")
        }

        /// Mean and sample standard deviation of `value` over the seeds that have it.
        public func statistics(_ value: (TrialOutcome) -> Double?) -> (mean: Double, standardDeviation: Double)? {
            let values = outcomes.compactMap(value)
            guard !values.isEmpty else { return nil }
            let statistics = Statistics(values)
            return (statistics.mean, statistics.standardDeviation)
        }
    }

    /// The selection metric.
    public var metric: SelectionMetric
    /// The swept parameters' paths, in grid order.
    public var parameters: [String]
    /// Rows, best first; ties keep grid order.
    public var rows: [Row]

    /// Builds the leaderboard from finished trials.
    public init(metric: SelectionMetric, parameters: [String], outcomes: [TrialOutcome], timings: [String: TrialTiming]) {
        self.metric = metric
        self.parameters = parameters
        let byCell = Dictionary(grouping: outcomes, by: \.cell)
        var rows: [Row] = byCell.keys.sorted().map { cell in
            let cellOutcomes = (byCell[cell] ?? []).sorted { $0.seed < $1.seed }
            let selected = cellOutcomes.compactMap(metric.value(in:))
            return Row(
                cell: cell, values: cellOutcomes.first?.values ?? [], outcomes: cellOutcomes,
                timings: cellOutcomes.map { timings[$0.id] },
                selection: selected.isEmpty ? nil : Statistics(selected).mean)
        }
        let better: (Double, Double) -> Bool = metric.higherIsBetter ? { $0 > $1 } : { $0 < $1 }
        let validationLoss: (Row) -> Double = { row in
            row.statistics { $0.splits["validation"]?.loss }?.mean ?? .infinity
        }
        rows = rows.enumerated().sorted { lhs, rhs in
            switch (lhs.element.selection, rhs.element.selection) {
            case let (l?, r?) where l != r: return better(l, r)
            case (nil, _?): return false
            case (_?, nil): return true
            default:
                // Ties (common when validation accuracy saturates): lower mean validation loss,
                // then grid order.
                let (l, r) = (validationLoss(lhs.element), validationLoss(rhs.element))
                return l != r ? l < r : lhs.offset < rhs.offset
            }
        }.map(\.element)
        self.rows = rows
    }

    /// The scores per trial that the leaderboard and comparisons show: CSV column name,
    /// title in words, and how to read it from an outcome.
    static let scoreColumns: [(name: String, title: String, value: @Sendable (TrialOutcome) -> Double?)] = [
        ("validation_accuracy", "validation accuracy", { $0.splits["validation"]?.accuracy }),
        ("validation_macro_f1", "validation macro-F1", { $0.splits["validation"]?.macroF1 }),
        ("test_accuracy", "test accuracy", { $0.splits["test"]?.accuracy }),
        ("test_macro_f1", "test macro-F1", { $0.splits["test"]?.macroF1 }),
        ("test_sequence_accuracy", "test accuracy (sequences)", { $0.splits["test"]?.sequenceAccuracy }),
        ("train_accuracy", "training accuracy", { $0.splits["train"]?.accuracy }),
    ]

    /// `leaderboard.csv`: `rank, cell, <swept parameters>, seeds, seed_values, selection_<metric>`,
    /// then mean and std of each score and of the validation loss (the first tie-break), mean best
    /// epoch, `diverged_seeds` and mean training seconds. `seeds` is the number of finished seeds,
    /// `seed_values` those seeds, space-separated (`1 2 3`); the means are over the seeds that
    /// did not diverge, and `diverged_seeds` lists those that did (loss non-finite, not scored).
    /// Only the last column depends on the machine's speed.
    public var csvTable: Table {
        var header = ["rank", "cell"] + parameters + ["seeds", "seed_values", "selection_\(metric.rawValue.replacingOccurrences(of: ".", with: "_"))"]
        for column in Self.scoreColumns { header += ["\(column.name)_mean", "\(column.name)_std"] }
        header += ["validation_loss_mean", "validation_loss_std", "best_epoch_mean", "diverged_seeds", "training_seconds_mean"]
        var table = Table(header: header)
        for (rank, row) in rows.enumerated() {
            var cells = ["\(rank + 1)", "\(row.cell)"] + parameters.map { path in
                Self.csvText(ofJSON: row.values.first { $0.path == path }?.value ?? "")
            }
            cells += [
                "\(row.outcomes.count)", row.outcomes.map { "\($0.seed)" }.joined(separator: " "),
                row.selection.map(NumberFormat.exact) ?? "",
            ]
            for column in Self.scoreColumns {
                let stats = row.statistics(column.value)
                cells += [stats.map { NumberFormat.exact($0.mean) } ?? "", stats.map { NumberFormat.exact($0.standardDeviation) } ?? ""]
            }
            // The first tie-break of the ranking.
            let loss = row.statistics { $0.splits["validation"]?.loss }
            cells += [loss.map { NumberFormat.exact($0.mean) } ?? "", loss.map { NumberFormat.exact($0.standardDeviation) } ?? ""]
            cells.append(row.statistics { $0.bestEpoch.map(Double.init) }.map { NumberFormat.exact($0.mean) } ?? "")
            cells.append(row.diverged.map { "\($0.seed)" }.joined(separator: " "))
            let seconds = row.timings.compactMap { $0?.trainingSeconds }
            cells.append(seconds.isEmpty ? "" : NumberFormat.fixed(Statistics(seconds).mean, digits: 3))
            table.append(cells)
        }
        return table
    }

    /// A swept value's canonical JSON text as a CSV field: a string without its JSON quotes
    /// (`full`, which CSV readers such as pandas then read as the string), anything else as is.
    package static func csvText(ofJSON json: String) -> String {
        guard json.hasPrefix("\""), let data = json.data(using: .utf8),
              let text = try? JSONDecoder().decode(String.self, from: data) else { return json }
        return text
    }

    /// The leaderboard in Markdown, scores as mean ± std with four decimals.
    public var markdownTable: Table {
        let shown: [(String, (TrialOutcome) -> Double?)] = [
            ("validation accuracy", { $0.splits["validation"]?.accuracy }), ("validation macro-F1", { $0.splits["validation"]?.macroF1 }),
            ("test accuracy", { $0.splits["test"]?.accuracy }), ("test macro-F1", { $0.splits["test"]?.macroF1 }),
        ]
        var table = Table(
            header: ["rank"] + parameters + ["seeds"] + shown.map(\.0) + ["best epoch", "training s"],
            numericColumns: Set(0..<(parameters.count + shown.count + 4)).subtracting(1...max(1, parameters.count)))
        for (rank, row) in rows.enumerated() {
            var cells = ["\(rank + 1)"] + parameters.map { path in row.values.first { $0.path == path }?.value ?? "" }
            cells.append(row.seedsText)
            for (_, value) in shown {
                cells.append(row.outcomes.compactMap(value).isEmpty ? "" : NumberFormat.meanStd(row.outcomes.compactMap(value)))
            }
            cells.append(row.statistics { $0.bestEpoch.map(Double.init) }.map { NumberFormat.fixed($0.mean, digits: 1) } ?? "")
            let seconds = row.timings.compactMap { $0?.trainingSeconds }
            cells.append(seconds.isEmpty ? "" : NumberFormat.fixed(Statistics(seconds).mean, digits: 1))
            table.append(cells)
        }
        return table
    }

    /// The configurations grouped by their value of `parameter`: values in grid order (first
    /// appearance by cell), rows of each group in cell order.
    /// - Parameter parameter: A swept path.
    /// - Returns: `(value, rows)` pairs; the value is canonical JSON text (`2.5`, `"full"`).
    public func parameterGroups(_ parameter: String) -> [(value: String, rows: [Row])] {
        var order: [String] = []
        var groups: [String: [Row]] = [:]
        for row in rows.sorted(by: { $0.cell < $1.cell }) {
            let value = row.values.first { $0.path == parameter }?.value ?? ""
            if groups[value] == nil { order.append(value) }
            groups[value, default: []].append(row)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// Per swept parameter: each value's mean selection metric and test accuracy over all cells
    /// and seeds with that value (for example, accuracy by action duration).
    public func parameterTables() -> [(parameter: String, table: Table)] {
        parameters.map { parameter in
            var table = Table(header: [parameter, "configurations", metric.rawValue, "test accuracy"], numericColumns: [1, 2, 3])
            for (value, group) in parameterGroups(parameter) {
                let outcomes = group.flatMap(\.outcomes)
                let selection = outcomes.compactMap(metric.value(in:))
                let test = outcomes.compactMap { $0.splits["test"]?.accuracy }
                table.append([
                    value, "\(group.count)",
                    selection.isEmpty ? "" : NumberFormat.meanStd(selection), test.isEmpty ? "" : NumberFormat.meanStd(test),
                ])
            }
            return (parameter, table)
        }
    }
}
