import Export
import Foundation

/// `actionlab export DIR --output OUTDIR [--trial ID] [--format onnx,safetensors,h5,coreml]`: exports the
/// best trial of a report (or the trial folder given, or the one named with `--trial`) and
/// prints the export folder on standard output. With `--ensemble [--seed N]`, exports the sweep's
/// best stream ensemble as one ONNX graph instead (``EnsembleExporter``).
enum ExportCommand: Subcommand {
    static let report = PositionalArgument(
        "DIR", help: "a sweep folder, whose best trial is exported (or the one named with --trial), or a trial folder")
    static let output = CommandOption.text(
        "output", valueName: "OUTDIR", help: "the folder to write the exported model into", isRequired: true)
    static let trial = CommandOption.text(
        "trial", valueName: "ID",
        help: "export this trial of the sweep folder instead of the best one (with --ensemble: the ensemble and seed of this member trial)")
    static let format = CommandOption.commaList(
        "format", valueName: ExportFormat.allCases.map(\.rawValue).joined(separator: ","),
        help: "the formats to write, comma-separated (default: "
            + ExportFormat.allCases.filter(ExportFormat.defaultFormats.contains).map(\.rawValue).joined(separator: ",") + "): "
            + ExportFormat.allCases.map { "\($0.rawValue) (\($0.fileName))" }.joined(separator: ", ")
            + "; \(ModelExporter.configurationName) and \(ModelExporter.modelCardName) are always written")

    static let ensemble = CommandOption.flag(
        "ensemble",
        help: "export the sweep's best stream ensemble (a sweep over model.stream) as one model: model.onnx with every stream "
            + "in one graph, \(EnsembleExporter.descriptionName), \(EnsembleExporter.membersFolderName)/<stream>/ and \(ModelExporter.modelCardName)")
    static let seed = CommandOption<Int>.number(
        "seed", valueName: "N", help: "with --ensemble: export this fused seed instead of the one with the best validation accuracy")

    static let specification = CommandSpecification(
        name: "export",
        abstract: "export the best trial of a sweep folder (the best configuration of its leaderboard, then its seed "
            + "with the highest validation accuracy), or the trial folder DIR, with a model card: "
            + (ExportFormat.allCases.filter(ExportFormat.defaultFormats.contains).map(\.fileName) + [ModelExporter.configurationName, ModelExporter.modelCardName]).joined(separator: ", ")
            + "; print the export folder",
        arguments: [report], options: [output, trial, format, ensemble, seed])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let directory = URL(fileURLWithPath: try parsed.value(of: report), isDirectory: true)
            let output = URL(fileURLWithPath: try parsed.required(output), isDirectory: true)
            if parsed.isSet(ensemble) {
                if parsed.isGiven(format) {
                    throw UsageError("--format does not go with --ensemble (an ensemble is exported as ONNX, with each member's weights.h5)")
                }
                if parsed.isGiven(trial) && parsed.isGiven(seed) {
                    throw UsageError("--trial and --seed both choose the seed: give one")
                }
                let result = try EnsembleExporter().export(
                    from: directory, seed: parsed.value(of: seed), trialID: parsed.value(of: trial), to: output)
                for skipped in result.selection.skipped {
                    Console.progress("warning: not fused, so not a candidate: \(skipped)")
                }
                Console.progress("exported \(result.selection.members.map(\.folder.id).joined(separator: ", ")) "
                    + "(\(result.selection.rule)): " + result.files.map { $0.path.replacingOccurrences(of: output.path + "/", with: "") }.joined(separator: ", "))
                print(output.path)
                return
            }
            if parsed.isGiven(seed) { throw UsageError("--seed goes with --ensemble") }
            // An unknown format is wrong usage (status 2), as other option values are.
            let formats: Set<ExportFormat>
            do {
                formats = try parsed.value(of: format).map(ExportFormat.parseList) ?? ExportFormat.defaultFormats
            } catch let error as ExportError {
                throw UsageError("\(error)")
            }
            let result = try ModelExporter(formats: formats).export(from: directory, trialID: parsed.value(of: trial), to: output)
            let chosen = result.selection.chosen
            // Folders of trials damaged after they finished (or of an older, unfinished layout):
            // named here, not only in the model card.
            for (id, missing) in result.selection.incomplete {
                Console.progress("warning: left out \(id): it lacks \(missing.joined(separator: ", "))")
            }
            Console.progress("exported \(chosen.folder.id) (\(result.selection.rule)): "
                + result.files.map(\.lastPathComponent).joined(separator: ", "))
            print(output.path)
        }
    }
}
