import Foundation
import SyntheticData

/// `actionlab synth --output DIR [--classes a,b,...] [--sequences-per-class N] [--seed S]
/// [--frame-rate FPS] [--duration SECONDS]`: writes a SYNTHETIC labelled dataset of parametric
/// `vision18` motions (see ``SyntheticDataset``) and prints the folder on standard output.
enum SynthCommand: Subcommand {
    /// The parameters when no option changes them; the help states them.
    private static let defaults = SyntheticDataset()

    static let output = CommandOption.text(
        "output", valueName: "DIR", help: "the folder to write the dataset into", isRequired: true)
    static let classes = CommandOption.commaList(
        "classes", valueName: "a,b,...",
        help: "the motions, comma-separated, from "
            + SyntheticAction.allCases.map(\.rawValue).joined(separator: ", ")
            + " (default: " + defaults.actions.map(\.rawValue).joined(separator: ",") + ")")
    static let sequencesPerClass = CommandOption<Int>.number(
        "sequences-per-class", valueName: "N", help: "sequences of each class (default \(defaults.sequencesPerClass))")
    static let seed = CommandOption<UInt64>.number(
        "seed", valueName: "S", help: "the seed every sequence's variation derives from (default \(defaults.seed))")
    static let frameRate = CommandOption<Double>.number(
        "frame-rate", valueName: "FPS", help: "frames per second (default \(plain(defaults.frameRate)))")
    static let duration = CommandOption<Double>.number(
        "duration", valueName: "SECONDS", help: "the length of every sequence, in seconds (default \(plain(defaults.duration)))")

    static let specification = CommandSpecification(
        name: "synth",
        abstract: "write a SYNTHETIC labelled keypoint-CSV dataset of parametric vision18 motions, one folder per class, "
            + "and print its folder (see experiments/synthetic.json5)",
        options: [output, classes, sequencesPerClass, seed, frameRate, duration])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let output = try parsed.required(output)
            var dataset = defaults
            if let classes = try parsed.value(of: classes) {
                dataset.actions = try SyntheticAction.parseList(classes)
            }
            dataset.sequencesPerClass = try parsed.value(of: sequencesPerClass) ?? dataset.sequencesPerClass
            dataset.seed = try parsed.value(of: seed) ?? dataset.seed
            dataset.frameRate = try parsed.value(of: frameRate) ?? dataset.frameRate
            dataset.duration = try parsed.value(of: duration) ?? dataset.duration
            // Option values out of range are usage errors (exit status 2), as in the other commands.
            do {
                try dataset.validate()
            } catch {
                throw UsageError("\(error)")
            }

            let folder = URL(fileURLWithPath: output, isDirectory: true)
            let files = try dataset.write(to: folder)
            Console.progress("wrote \(files.count) SYNTHETIC sequences of \(dataset.actions.count) classes "
                + "(\(dataset.frameCount) frames at \(dataset.frameRate) fps, seed \(dataset.seed))")
            print(folder.path)
        }
    }

    /// `value` without a fractional part when it has none: `30`, `2.5`.
    private static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
