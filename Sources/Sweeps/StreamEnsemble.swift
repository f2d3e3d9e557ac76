import Foundation
import ManifestSchema
import NeuralNetwork
import Reports
import Training

/// The late fusion of trials that differ only in `model.stream`: for each seed, the weighted
/// mean of the streams' class probabilities on every validation and test window, scored as a
/// trial is (PYSKL's multi-stream ensembles: Duan et al., "PYSKL: Towards Good Practices for
/// Skeleton Action Recognition", ACM MM 2022; the two-stream fusion of Shi et al., 2s-AGCN,
/// CVPR 2019).
///
/// A sweep gets one ensemble per combination of its other swept values when it sweeps
/// `model.stream` over at least two streams. A seed is fused once every stream of the
/// combination has finished it without diverging; the probabilities come from each trial's
/// `scores/<split>.csv`. The weights are `sweep.ensembleWeights` (default 2:2:1:1 for joint,
/// bone, joint motion, bone motion). Fusion uses fixed weights, so the test split informs no
/// choice.
public struct StreamEnsemble: Sendable {
    /// The swept path of the stream.
    public static let streamPath = "model.stream"

    /// One fused seed: its scores per split (`validation`, `test`, where every stream has them).
    public struct Seed: Sendable {
        public var seed: Int
        public var splits: [String: SplitMetrics]
    }

    /// The other swept values the fused cells share.
    public var values: [Trial.SweptValue]
    /// The fused streams, in ``KeypointStream`` order, with their weights.
    public var streams: [(stream: KeypointStream, weight: Double)]
    /// The fused seeds, in seed order.
    public var seeds: [Seed]
    /// Each stream's finished, scored trials (for the single-stream comparison).
    public var members: [KeypointStream: [TrialOutcome]]
    /// Seeds that could not be fused, with why (a stream unfinished or diverged, a scores file
    /// missing or inconsistent).
    public var skipped: [String]

    /// The streams as PYSKL writes them, `j+b+jm+bm`.
    public var streamsText: String { streams.map(\.stream.shortName).joined(separator: "+") }
    /// The weights, `2:2:1:1`.
    public var weightsText: String { streams.map { $0.weight.manifestText }.joined(separator: ":") }

    /// The ensembles of a sweep folder's finished trials.
    ///
    /// - Parameters:
    ///   - plan: The sweep.
    ///   - leaderboard: Its finished trials.
    ///   - folder: The sweep folder, where `trials/<id>/scores/` are.
    /// - Returns: One ensemble per combination of the other swept values with at least two
    ///   streams; empty when `model.stream` is not swept.
    public static func ensembles(plan: SweepPlan, leaderboard: Leaderboard, folder: URL) -> [StreamEnsemble] {
        guard plan.sweep.axes.contains(where: { $0.path == streamPath }) else { return [] }
        let weights = plan.sweep.streamWeights
        let evaluator = Evaluator(batchSize: 1, aggregation: plan.base.evaluation.aggregation)
        var order: [[Trial.SweptValue]] = []
        var groups: [[Trial.SweptValue]: [KeypointStream: [TrialOutcome]]] = [:]
        for row in leaderboard.rows.sorted(by: { $0.cell < $1.cell }) {
            guard let text = row.values.first(where: { $0.path == streamPath })?.value,
                  let stream = KeypointStream(rawValue: Leaderboard.csvText(ofJSON: text)) else { continue }
            let key = row.values.filter { $0.path != streamPath }
            if groups[key] == nil { order.append(key) }
            groups[key, default: [:]][stream, default: []] += row.outcomes
        }
        return order.compactMap { key -> StreamEnsemble? in
            guard let byStream = groups[key], byStream.count >= 2 else { return nil }
            let streams: [(stream: KeypointStream, weight: Double)] = KeypointStream.allCases.filter { byStream[$0] != nil }.map { ($0, weights[$0] ?? 0) }
            var ensemble = StreamEnsemble(values: key, streams: streams, seeds: [], members: byStream, skipped: [])
            let seeds = Set(byStream.values.flatMap { $0.map(\.seed) }).sorted()
            for seed in seeds {
                var members: [(stream: KeypointStream, outcome: TrialOutcome)] = []
                for (stream, _) in streams {
                    guard let outcome = byStream[stream]?.first(where: { $0.seed == seed }) else { continue }
                    members.append((stream, outcome))
                }
                guard members.count == streams.count else {
                    let missing = streams.map(\.stream).filter { stream in !members.contains { $0.stream == stream } }
                    ensemble.skipped.append("seed \(seed): \(missing.map(\.rawValue).joined(separator: ", ")) not finished")
                    continue
                }
                if let diverged = members.first(where: { $0.outcome.diverged != nil }) {
                    ensemble.skipped.append("seed \(seed): the \(diverged.stream.rawValue) trial diverged")
                    continue
                }
                do {
                    var splits: [String: SplitMetrics] = [:]
                    for split in ["validation", "test"] {
                        let files = members.map {
                            folder.appendingPathComponent("trials/\($0.outcome.id)/\(WindowScores.folderName)/\(split).csv")
                        }
                        guard files.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) else { continue }
                        var parts: [(scores: WindowScores, weight: Double)] = []
                        for (member, file) in zip(members, files) {
                            let scores = try WindowScores(contentsOf: file)
                            if let first = parts.first?.scores, !scores.describesTheSameWindows(as: first) {
                                throw SweepError.windowScores(
                                    path: file.path, reason: "its windows, recordings or labels differ from those of the other streams' \(split).csv")
                            }
                            parts.append((scores, weights[member.stream] ?? 0))
                        }
                        guard let fused = WindowScores.fused(parts) else {
                            throw SweepError.windowScores(path: files[0].path, reason: "the weights of the streams sum to 0")
                        }
                        splits[split] = evaluator.metrics(of: fused, loss: nil)
                    }
                    guard !splits.isEmpty else {
                        ensemble.skipped.append("seed \(seed): no trial of it has scores/validation.csv or scores/test.csv")
                        continue
                    }
                    ensemble.seeds.append(Seed(seed: seed, splits: splits))
                } catch {
                    ensemble.skipped.append("seed \(seed): \(error)")
                }
            }
            return ensemble
        }
    }

    /// The scores the ensemble tables show: name and how to read them from a fused seed and
    /// from a single-stream trial.
    static let scoreColumns: [(name: String, title: String, seed: @Sendable (Seed) -> Double?, trial: @Sendable (TrialOutcome) -> Double?)] = [
        ("validation_accuracy", "validation accuracy", { $0.splits["validation"]?.window.accuracy }, { $0.splits["validation"]?.accuracy }),
        ("test_accuracy", "test accuracy", { $0.splits["test"]?.window.accuracy }, { $0.splits["test"]?.accuracy }),
        ("test_sequence_accuracy", "test accuracy (sequences)", { $0.splits["test"]?.sequence.accuracy }, { $0.splits["test"]?.sequenceAccuracy }),
        ("test_macro_f1", "test macro-F1", { $0.splits["test"]?.window.macroF1 }, { $0.splits["test"]?.macroF1 }),
    ]

    /// `ensembles.csv`: per ensemble and per member stream, one row: the other swept values,
    /// `model` (`ensemble` or the stream), `streams`, `weights`, `seeds`, `seed_values`, then
    /// mean and std of each score over the seeds.
    public static func csvTable(_ ensembles: [StreamEnsemble], parameters: [String]) -> Table {
        let others = parameters.filter { $0 != streamPath }
        var header = others + ["model", "streams", "weights", "seeds", "seed_values"]
        for column in scoreColumns { header += ["\(column.name)_mean", "\(column.name)_std"] }
        var table = Table(header: header)
        for ensemble in ensembles {
            let values = others.map { path in Leaderboard.csvText(ofJSON: ensemble.values.first { $0.path == path }?.value ?? "") }
            func statisticsCells(_ values: [Double]) -> [String] {
                guard !values.isEmpty else { return ["", ""] }
                let statistics = Statistics(values)
                return [NumberFormat.exact(statistics.mean), NumberFormat.exact(statistics.standardDeviation)]
            }
            var cells = values + ["ensemble", ensemble.streamsText, ensemble.weightsText, "\(ensemble.seeds.count)",
                                  ensemble.seeds.map { "\($0.seed)" }.joined(separator: " ")]
            for column in scoreColumns { cells += statisticsCells(ensemble.seeds.compactMap(column.seed)) }
            table.append(cells)
            for (stream, weight) in ensemble.streams {
                let outcomes = (ensemble.members[stream] ?? []).filter { $0.diverged == nil }.sorted { $0.seed < $1.seed }
                var row = values + [stream.rawValue, stream.shortName, weight.manifestText, "\(outcomes.count)",
                                    outcomes.map { "\($0.seed)" }.joined(separator: " ")]
                for column in scoreColumns { row += statisticsCells(outcomes.compactMap(column.trial)) }
                table.append(row)
            }
        }
        return table
    }

    /// The `## Stream ensembles` section of `summary.md`: each ensemble and its streams, scores
    /// as mean ± std over seeds, and the seeds that could not be fused.
    public static func markdownSection(_ ensembles: [StreamEnsemble], parameters: [String]) -> String {
        guard !ensembles.isEmpty else { return "" }
        let others = parameters.filter { $0 != streamPath }
        var text = "## Stream ensembles\n\nTrials that differ only in `model.stream`, fused per seed by the weighted mean of their "
            + "class probabilities (`sweep.ensembleWeights`; PYSKL's late fusion). Mean ± sample standard deviation over seeds; "
            + "[ensembles.csv](ensembles.csv) has every column.\n\n"
        var table = Table(
            header: others + ["model", "weight", "seeds"] + scoreColumns.map(\.title),
            numericColumns: Set((others.count + 1)..<(others.count + 3 + scoreColumns.count)))
        var notes: [String] = []
        for ensemble in ensembles {
            let values = others.map { path in ensemble.values.first { $0.path == path }?.value ?? "" }
            func cell(_ values: [Double]) -> String { values.isEmpty ? "" : NumberFormat.meanStd(values) }
            table.append(values + ["**ensemble \(ensemble.streamsText)**", ensemble.weightsText, "\(ensemble.seeds.count)"]
                + scoreColumns.map { cell(ensemble.seeds.compactMap($0.seed)) })
            for (stream, weight) in ensemble.streams {
                let outcomes = (ensemble.members[stream] ?? []).filter { $0.diverged == nil }
                table.append(values + [stream.rawValue, weight.manifestText, "\(outcomes.count)"]
                    + scoreColumns.map { cell(outcomes.compactMap($0.trial)) })
            }
            notes += ensemble.skipped.map { "- " + (values.isEmpty ? "" : values.joined(separator: ", ") + ": ") + $0 }
        }
        text += table.markdown + "\n"
        if !notes.isEmpty { text += "Not fused:\n\n" + notes.joined(separator: "\n") + "\n\n" }
        return text
    }
}
