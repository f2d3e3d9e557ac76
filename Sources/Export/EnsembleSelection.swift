import Foundation
import NeuralNetwork
import Sweeps

/// Which stream ensemble of a sweep folder to export, which seed of it, and why.
///
/// The rule mirrors ``TrialSelection``'s: the ensemble (one per combination of the sweep's other
/// swept values, ``StreamEnsemble``) with the highest fused validation accuracy over windows,
/// mean over its fused seeds (ties to grid order); within it, the seed with the highest fused
/// validation accuracy, then the lower fused validation loss, then the lower seed. Test scores
/// are shown but never used. A sweep without a validation split can still be exported when it
/// has one ensemble: its lowest fused seed is taken, and the rule says so; `seed` names another.
public struct EnsembleSelection: Sendable {
    /// One member of the exported ensemble: a stream's trial of the chosen seed.
    public struct Member: Sendable {
        /// The stream the trial was trained on.
        public var stream: KeypointStream
        /// Its weight in the fusion, as `sweep.ensembleWeights` gives it (not normalized).
        public var weight: Double
        /// The trial folder.
        public var folder: TrialFolder
    }

    /// Every ensemble of the sweep, in grid order.
    public var ensembles: [StreamEnsemble]
    /// The index of the chosen ensemble in ``ensembles``.
    public var chosenIndex: Int
    /// The chosen seed's fused scores.
    public var seed: StreamEnsemble.Seed
    /// The members, in ``KeypointStream`` order.
    public var members: [Member]
    /// How the ensemble and seed were chosen, as the model card and metadata record it.
    public var rule: String

    /// The chosen ensemble.
    public var chosen: StreamEnsemble { ensembles[chosenIndex] }

    /// Finds the stream ensembles of a sweep folder and chooses one seed of one of them.
    ///
    /// - Parameters:
    ///   - directory: A sweep folder (`actionlab run`) whose sweep has `model.stream` on an axis.
    ///   - seed: The seed to export instead of the rule's choice, within the chosen ensemble.
    /// - Returns: The selection.
    /// - Throws: ``ExportError/folderNotFound(path:)``; ``ExportError/noEnsemble(folder:reason:)``
    ///   when the folder is not a sweep over `model.stream`, or no seed could be fused (with the
    ///   reasons, such as an unfinished stream); ``ExportError/unknownSeed(_:folder:available:)``;
    ///   ``ExportError/noValidationMetrics(folder:candidates:)`` when several ensembles could be
    ///   chosen and none has validation scores.
    public static func select(in directory: URL, seed requested: Int? = nil) throws -> EnsembleSelection {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExportError.folderNotFound(path: directory.path)
        }
        let plan: SweepPlan
        do {
            plan = try SweepRecord(folder: directory).plan()
        } catch {
            throw ExportError.noEnsemble(folder: directory.path, reason: "not a sweep folder of actionlab run (\(error))")
        }
        guard plan.sweep.axes.contains(where: { $0.path == StreamEnsemble.streamPath }) else {
            throw ExportError.noEnsemble(folder: directory.path, reason: "its sweep has no \(StreamEnsemble.streamPath) axis")
        }
        let ensembles = StreamEnsemble.ensembles(plan: plan, leaderboard: Leaderboard(plan: plan, folder: directory), folder: directory)
        let fused = ensembles.indices.filter { !ensembles[$0].seeds.isEmpty }
        guard !fused.isEmpty else {
            let reasons = ensembles.flatMap(\.skipped)
            throw ExportError.noEnsemble(
                folder: directory.path,
                reason: "no seed has every stream finished" + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; ")))
        }
        func validationAccuracy(_ seed: StreamEnsemble.Seed) -> Double? { seed.splits["validation"]?.window.accuracy }
        func meanValidationAccuracy(_ index: Int) -> Double? {
            let values = ensembles[index].seeds.compactMap(validationAccuracy)
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
        let ranked = fused.sorted { a, b in
            switch (meanValidationAccuracy(a), meanValidationAccuracy(b)) {
            case let (x?, y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a < b
            }
        }
        let chosenIndex = ranked[0]
        let hasValidation = meanValidationAccuracy(chosenIndex) != nil
        if !hasValidation && fused.count > 1 {
            throw ExportError.noValidationMetrics(
                folder: directory.path,
                candidates: fused.map { index in
                    let values = ensembles[index].values.map { "\($0.path)=\($0.value)" }.joined(separator: ", ")
                    return "ensemble \(ensembles[index].streamsText)" + (values.isEmpty ? "" : " [\(values)]")
                })
        }
        let ensemble = ensembles[chosenIndex]
        let seeds = ensemble.seeds.sorted { a, b in
            switch (validationAccuracy(a), validationAccuracy(b)) {
            case let (x?, y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            let (lossA, lossB) = (a.splits["validation"]?.window.loss ?? .infinity, b.splits["validation"]?.window.loss ?? .infinity)
            if lossA != lossB { return lossA < lossB }
            return a.seed < b.seed
        }
        let values = ensemble.values.map { "\($0.path)=\($0.value)" }.joined(separator: ", ")
        let group = "ensemble \(ensemble.streamsText) (weights \(ensemble.weightsText))" + (values.isEmpty ? "" : " [\(values)]")
        let chosenSeed: StreamEnsemble.Seed
        let rule: String
        if let requested {
            guard let named = ensemble.seeds.first(where: { $0.seed == requested }) else {
                throw ExportError.unknownSeed(requested, folder: directory.path, available: ensemble.seeds.map(\.seed).sorted())
            }
            chosenSeed = named
            rule = "\(group), seed named with --seed \(requested)"
        } else if hasValidation {
            chosenSeed = seeds[0]
            rule = "\(group): the ensemble with the highest fused validation accuracy (windows, mean over its "
                + "\(ensemble.seeds.count) fused seed\(ensemble.seeds.count == 1 ? "" : "s"); ties: grid order); within it, the seed "
                + "with the highest fused validation accuracy, ties broken by lower fused validation loss, then the lower seed"
        } else {
            chosenSeed = ensemble.seeds.min { $0.seed < $1.seed } ?? seeds[0]
            rule = "\(group): the sweep's only ensemble; it has no validation split, so its lowest fused seed"
        }
        let members = try ensemble.streams.map { stream, weight -> Member in
            guard let outcome = ensemble.members[stream]?.first(where: { $0.seed == chosenSeed.seed }) else {
                throw ExportError.noEnsemble(
                    folder: directory.path, reason: "the \(stream.rawValue) trial of seed \(chosenSeed.seed) is missing")
            }
            let folder = TrialFolder(url: directory.appendingPathComponent("trials/\(outcome.id)"), id: "trials/\(outcome.id)")
            return Member(stream: stream, weight: weight, folder: folder)
        }
        return EnsembleSelection(
            ensembles: ensembles, chosenIndex: chosenIndex, seed: chosenSeed, members: members, rule: rule)
    }
}
