import Foundation
import SyntheticData

/// `actionlab synth --output DIR [--classes a,b,...] [--sequences-per-class N] [--seed S]
/// [--frame-rate FPS] [--duration SECONDS]`: writes a SYNTHETIC labelled dataset of parametric
/// `vision18` motions (see ``SyntheticDataset``) and prints the folder on standard output.
enum SynthCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(
                arguments, valueOptions: ["output", "classes", "sequences-per-class", "seed", "frame-rate", "duration"])
            guard parsed.positionals.isEmpty else {
                throw UsageError("synth takes options only, found '\(parsed.positionals.joined(separator: " "))'")
            }
            guard let output = parsed.options["output"] else { throw UsageError("synth needs --output DIR") }
            var dataset = SyntheticDataset()
            if let classes = parsed.options["classes"] {
                dataset.actions = try SyntheticAction.parseList(classes)
            }
            dataset.sequencesPerClass = try number(parsed, "sequences-per-class", default: dataset.sequencesPerClass)
            dataset.seed = try number(parsed, "seed", default: dataset.seed)
            dataset.frameRate = try number(parsed, "frame-rate", default: dataset.frameRate)
            dataset.duration = try number(parsed, "duration", default: dataset.duration)

            let folder = URL(fileURLWithPath: output, isDirectory: true)
            let files = try dataset.write(to: folder)
            Console.progress("wrote \(files.count) SYNTHETIC sequences of \(dataset.actions.count) classes "
                + "(\(dataset.frameCount) frames at \(dataset.frameRate) fps, seed \(dataset.seed))")
            print(folder.path)
        }
    }

    /// The value of `--name` parsed as `Value`, or `defaultValue` when the option is absent.
    private static func number<Value: LosslessStringConvertible>(
        _ parsed: CommandLineArguments, _ name: String, default defaultValue: Value
    ) throws -> Value {
        guard let text = parsed.options[name] else { return defaultValue }
        guard let value = Value(text) else { throw UsageError("--\(name) needs a number, got '\(text)'") }
        return value
    }
}
