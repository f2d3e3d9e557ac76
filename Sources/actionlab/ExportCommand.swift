import Export
import Foundation

/// `actionlab export DIR [--trial ID] [--format onnx,safetensors,h5] --output OUTDIR`: exports the
/// best trial of a report (or the trial folder given, or the one named with `--trial`) and
/// prints the export folder on standard output.
enum ExportCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: ["trial", "format", "output"])
            let directory = URL(fileURLWithPath: try parsed.singlePositional("DIR"), isDirectory: true)
            guard let outputPath = parsed.options["output"] else {
                throw UsageError("missing --output OUTDIR, the folder to write the exported model into")
            }
            let formats = try parsed.options["format"].map(ExportFormat.parseList) ?? Set(ExportFormat.allCases)
            let output = URL(fileURLWithPath: outputPath, isDirectory: true)
            let result = try ModelExporter(formats: formats).export(from: directory, trialID: parsed.options["trial"], to: output)
            let chosen = result.selection.chosen
            Console.progress("exported \(chosen.folder.id) (\(result.selection.rule)): "
                + result.files.map(\.lastPathComponent).joined(separator: ", "))
            print(output.path)
        }
    }
}
