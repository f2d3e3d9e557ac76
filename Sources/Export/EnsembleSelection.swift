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
/// has one ensemble: its lowest fused seed is taken, and the rule says so. `seed` names another
/// seed of the chosen ensemble; `trialID` names one member trial, whose ensemble and seed are
/// exported. Seeds that could not be fused (a stream unfinished, diverged or with a damaged
/// scores file) are listed in ``skipped``, so a choice among fewer seeds never goes unsaid.
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
    /// The chosen ensemble's seeds that could not be fused, with why.
    public var skipped: [String] { chosen.skipped }

    /// The chosen ensemble.
    public var chosen: StreamEnsemble { ensembles[chosenIndex] }

    /// Finds the stream ensembles of a sweep folder and chooses one seed of one of them.
    ///
    /// - Parameters:
    ///   - directory: A sweep folder (`actionlab run`) whose sweep has `model.stream` on an axis.
    ///   - seed: The seed to export instead of the rule's choice, within the chosen ensemble.
    ///   - trialID: A member trial (`trials/<id>` or `<id>`) whose ensemble and seed to export
    ///     instead of the rule's choice.
    /// - Returns: The selection.
    /// - Throws: ``ExportError/folderNotFound(path:)``; ``ExportError/noEnsemble(folder:reason:)``
    ///   when the folder is not a sweep over `model.stream`, or no seed could be fused (with the
    ///   reasons, such as an unfinished stream); ``ExportError/unknownSeed(_:folder:available:)``;
    ///   ``ExportError/noValidationMetrics(folder:candidates:)`` when several ensembles could be
    ///   chosen and none has validation scores; ``ExportError/unknownTrial(_:folder:available:)``.
    public static func select(in directory: URL, seed requested: Int? = nil, trialID: String? = nil) throws -> EnsembleSelection {
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
        if ensembles.isEmpty {
            let streams = plan.sweep.axes.first { $0.path == StreamEnsemble.streamPath }?.values.map { Leaderboard.csvText(ofJSON: $0) } ?? []
            throw ExportError.noEnsemble(
                folder: directory.path,
                reason: streams.count < 2
                    ? "its sweep trains one stream (\(streams.joined(separator: ", "))); an ensemble needs two or more"
                    : "no two streams of one configuration have finished")
        }
        if let trialID {
            let id = trialID.hasPrefix("trials/") ? String(trialID.dropFirst("trials/".count)) : trialID
            for (index, ensemble) in ensembles.enumerated() {
                guard let outcome = ensemble.members.values.flatMap({ $0 }).first(where: { $0.id == id }) else { continue }
                guard let seed = ensemble.seeds.first(where: { $0.seed == outcome.seed }) else {
                    throw ExportError.noEnsemble(
                        folder: directory.path,
                        reason: "trial \(trialID)'s seed \(outcome.seed) could not be fused: "
                            + (ensemble.skipped.first { $0.hasPrefix("seed \(outcome.seed):") } ?? "not every stream has it"))
                }
                return try selection(
                    ensembles: ensembles, chosenIndex: index, seed: seed, directory: directory,
                    rule: "\(description(of: ensemble)), the ensemble and seed of trial \(trialID) named with --trial")
            }
            throw ExportError.unknownTrial(
                trialID, folder: directory.path,
                available: ensembles.flatMap { $0.members.values.flatMap { $0 }.map { "trials/\($0.id)" } }.sorted())
        }
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
                    let trials = ensembles[index].members.values.flatMap { $0 }.map { "trials/\($0.id)" }.sorted()
                    return description(of: ensembles[index]) + " (member trials \(trials.joined(separator: ", ")))"
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
        let group = description(of: ensemble)
        let chosenSeed: StreamEnsemble.Seed
        let rule: String
        if let requested {
            guard let named = ensemble.seeds.first(where: { $0.seed == requested }) else {
                if let reason = ensemble.skipped.first(where: { $0.hasPrefix("seed \(requested):") }) {
                    throw ExportError.noEnsemble(folder: directory.path, reason: "--seed \(requested) could not be fused: \(reason)")
                }
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
        return try selection(ensembles: ensembles, chosenIndex: chosenIndex, seed: chosenSeed, directory: directory, rule: rule)
    }

    /// `ensemble j+b (weights 2:2) [model.dropout=0]`.
    private static func description(of ensemble: StreamEnsemble) -> String {
        let values = ensemble.values.map { "\($0.path)=\($0.value)" }.joined(separator: ", ")
        return "ensemble \(ensemble.streamsText) (weights \(ensemble.weightsText))" + (values.isEmpty ? "" : " [\(values)]")
    }

    /// The selection of `seed` of `ensembles[chosenIndex]`, with its members' trial folders.
    private static func selection(
        ensembles: [StreamEnsemble], chosenIndex: Int, seed: StreamEnsemble.Seed, directory: URL, rule: String
    ) throws -> EnsembleSelection {
        let ensemble = ensembles[chosenIndex]
        let members = try ensemble.streams.map { stream, weight -> Member in
            guard let outcome = ensemble.members[stream]?.first(where: { $0.seed == seed.seed }) else {
                throw ExportError.noEnsemble(
                    folder: directory.path, reason: "the \(stream.rawValue) trial of seed \(seed.seed) is missing")
            }
            let folder = TrialFolder(url: directory.appendingPathComponent("trials/\(outcome.id)"), id: "trials/\(outcome.id)")
            return Member(stream: stream, weight: weight, folder: folder)
        }
        return EnsembleSelection(ensembles: ensembles, chosenIndex: chosenIndex, seed: seed, members: members, rule: rule)
    }
}
