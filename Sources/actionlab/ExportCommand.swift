import Export
import Foundation

/// `actionlab export DIR --output OUTDIR [--trial ID] [--format onnx,safetensors,h5,coreml]`: exports the
/// best trial of a report (or the trial folder given, or the one named with `--trial`) and
/// prints the export folder on standard output.
enum ExportCommand: Subcommand {
    static let report = PositionalArgument(
        "DIR", help: "a sweep folder, whose best trial is exported (or the one named with --trial), or a trial folder")
    static let output = CommandOption.text(
        "output", valueName: "OUTDIR", help: "the folder to write the exported model into", isRequired: true)
    static let trial = CommandOption.text(
        "trial", valueName: "ID", help: "export this trial of the sweep folder instead of the best one")
    static let format = CommandOption.commaList(
        "format", valueName: ExportFormat.allCases.map(\.rawValue).joined(separator: ","),
        help: "the formats to write, comma-separated (default: "
            + ExportFormat.allCases.filter(ExportFormat.defaultFormats.contains).map(\.rawValue).joined(separator: ",") + "): "
            + ExportFormat.allCases.map { "\($0.rawValue) (\($0.fileName))" }.joined(separator: ", ")
            + "; \(ModelExporter.configurationName) and \(ModelExporter.modelCardName) are always written")

    static let specification = CommandSpecification(
        name: "export",
        abstract: "export the best trial of a sweep folder (the best configuration of its leaderboard, then its seed "
            + "with the highest validation accuracy), or the trial folder DIR, with a model card: "
            + (ExportFormat.allCases.filter(ExportFormat.defaultFormats.contains).map(\.fileName) + [ModelExporter.configurationName, ModelExporter.modelCardName]).joined(separator: ", ")
            + "; print the export folder",
        arguments: [report], options: [output, trial, format])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let directory = URL(fileURLWithPath: try parsed.value(of: report), isDirectory: true)
            let output = URL(fileURLWithPath: try parsed.required(output), isDirectory: true)
            let formats = try parsed.value(of: format).map(ExportFormat.parseList) ?? ExportFormat.defaultFormats
            let result = try ModelExporter(formats: formats).export(from: directory, trialID: parsed.value(of: trial), to: output)
            let chosen = result.selection.chosen
            Console.progress("exported \(chosen.folder.id) (\(result.selection.rule)): "
                + result.files.map(\.lastPathComponent).joined(separator: ", "))
            print(output.path)
        }
    }
}
