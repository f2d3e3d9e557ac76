import Foundation
import Reports
import TensorBoard
import Training

/// The TensorBoard event files of a sweep: one per trial with its curves, scores and
/// hyperparameters, and one for the sweep with the HParams experiment.
///
/// `tensorboard --logdir SWEEP_DIR` then shows every trial as a run
/// (`trials/<id>/tensorboard`) with the scalars below, and the HParams dashboard lists every
/// trial with its swept values and seed beside its scores (table and parallel coordinates).
///
/// Per epoch (step = epoch): `train/loss`, `train/accuracy`, `validation/loss`,
/// `validation/accuracy` (the values of `curves.csv`) and `learning_rate` (the schedule's value
/// for the epoch, as the trainer set it). At the saved epoch, for every split with data:
/// `scores/<split>/accuracy`, `scores/<split>/macro_f1` (windows) and
/// `scores/<split>/sequence_accuracy` (the values of `metrics.json`); these are the HParams
/// metrics. A diverged trial has curves but no scores, and its session ends with status failure.
public enum TensorBoardLog {
    /// The folder of a trial's or the sweep's event file, inside the trial or sweep folder.
    public static let folderName = "tensorboard"

    /// The HParams metrics, in column order: every split's scores.
    public static let metrics: [MetricInfo] = RunReport.splitOrder.flatMap { split -> [MetricInfo] in
        let dataset: MetricInfo.Dataset = split == "train" ? .training : split == "validation" ? .validation : .unknown
        return [
            MetricInfo(tag: "scores/\(split)/accuracy", displayName: "\(split) accuracy", description: "window accuracy of the saved weights", dataset: dataset),
            MetricInfo(tag: "scores/\(split)/macro_f1", displayName: "\(split) macro-F1", description: "window macro-F1 of the saved weights", dataset: dataset),
            MetricInfo(
                tag: "scores/\(split)/sequence_accuracy", displayName: "\(split) sequence accuracy",
                description: "accuracy over whole sequences of the saved weights", dataset: dataset),
        ]
    }

    /// A finished trial's event file.
    /// - Parameters:
    ///   - trial: The trial; its swept values and seed become the session's hyperparameters.
    ///   - report: Its curves and scores.
    ///   - diverged: Whether training stopped on a non-finite loss.
    ///   - startTime: When this process started the trial, in seconds since 1970.
    ///   - epochTimes: When each epoch ended, by epoch, in seconds since 1970; epochs trained by an
    ///     earlier process (before a resumed checkpoint) are missing and get `startTime`.
    ///   - endTime: When the trial finished, in seconds since 1970.
    public static func trialFile(
        trial: Trial, report: RunReport, diverged: Bool, startTime: Double, epochTimes: [Int: Double], endTime: Double
    ) -> EventFile {
        var file = EventFile(wallTime: startTime)
        file.addSessionStart(hyperparameters: hyperparameters(of: trial), wallTime: startTime)
        let schedule = trial.configuration.training.schedule.schedule(
            learningRate: trial.configuration.training.learningRate, epochs: trial.configuration.training.epochs)
        for record in report.history {
            let time = epochTimes[record.epoch] ?? startTime
            file.addScalar(tag: "train/loss", value: record.trainLoss, step: record.epoch, wallTime: time)
            file.addScalar(tag: "train/accuracy", value: record.trainAccuracy, step: record.epoch, wallTime: time)
            if let loss = record.validationLoss {
                file.addScalar(tag: "validation/loss", value: loss, step: record.epoch, wallTime: time)
            }
            if let accuracy = record.validationAccuracy {
                file.addScalar(tag: "validation/accuracy", value: accuracy, step: record.epoch, wallTime: time)
            }
            // What the trainer sets before the epoch: the schedule at the 0-based epoch index.
            file.addScalar(tag: "learning_rate", value: Double(Float(schedule.learningRate(epoch: record.epoch - 1))), step: record.epoch, wallTime: time)
        }
        let savedEpoch = report.savedEpoch ?? report.history.last?.epoch ?? 0
        for split in RunReport.splitOrder {
            guard let scores = report.metrics[split] else { continue }
            file.addScalar(tag: "scores/\(split)/accuracy", value: scores.window.accuracy, step: savedEpoch, wallTime: endTime)
            file.addScalar(tag: "scores/\(split)/macro_f1", value: scores.window.macroF1, step: savedEpoch, wallTime: endTime)
            file.addScalar(tag: "scores/\(split)/sequence_accuracy", value: scores.sequence.accuracy, step: savedEpoch, wallTime: endTime)
        }
        file.addSessionEnd(succeeded: !diverged, wallTime: endTime)
        return file
    }

    /// The sweep's event file: the HParams experiment, declaring every swept parameter (with
    /// the values of the grid) and `seed` as hyperparameters, and ``metrics``.
    /// - Parameters:
    ///   - plan: The sweep.
    ///   - name: The experiment's name (the sweep folder's name).
    ///   - wallTime: Seconds since 1970.
    public static func sweepFile(plan: SweepPlan, name: String, wallTime: Double) -> EventFile {
        var columns: [(name: String, values: [HParamValue])] = []
        for trial in plan.trials {
            for (name, value) in hyperparameters(of: trial) {
                if let column = columns.firstIndex(where: { $0.name == name }) {
                    if !columns[column].values.contains(value) { columns[column].values.append(value) }
                } else {
                    columns.append((name, [value]))
                }
            }
        }
        var file = EventFile(wallTime: wallTime)
        file.addExperiment(
            name: name,
            description: "ActionLab sweep: \(plan.sweep.cellCount) configuration\(plan.sweep.cellCount == 1 ? "" : "s") × "
                + "\(plan.base.training.seeds.count) seed\(plan.base.training.seeds.count == 1 ? "" : "s")",
            hyperparameters: columns.map { HParamInfo(name: $0.name, values: $0.values) }, metrics: metrics, wallTime: wallTime)
        return file
    }

    /// A trial's hyperparameters: its swept values (manifest path → value), then `seed`.
    static func hyperparameters(of trial: Trial) -> [(name: String, value: HParamValue)] {
        trial.values.map { ($0.path, value(ofJSON: $0.value)) } + [("seed", .number(Double(trial.seed)))]
    }

    /// A swept value (canonical JSON text) as an HParams value: a number, a Boolean, a string's
    /// contents, or for arrays and objects their JSON text.
    static func value(ofJSON text: String) -> HParamValue {
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        if let number = Double(text), number.isFinite { return .number(number) }
        if text.hasPrefix("\""), let data = text.data(using: .utf8),
           let string = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? String {
            return .string(string)
        }
        return .string(text)
    }
}
