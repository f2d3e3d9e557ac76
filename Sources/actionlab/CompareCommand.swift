import Foundation
import Sweeps

/// `actionlab compare DIR DIR... [--all] [--output FILE]`: compares sweep folders and trial
/// folders (`<sweep>/trials/<id>`), printing Markdown: the runs, the settings whose values
/// differ, then the scores side by side.
///
/// A sweep folder stands for its best configuration (rank 1 of its leaderboard), or with
/// `--all` for each of its configurations. `--output FILE` writes the Markdown to FILE
/// (atomically) instead of standard output.
enum CompareCommand: Subcommand {
    static let all = CommandOption.flag(
        "all", help: "a sweep folder stands for each of its configurations (a column each, best first) instead of its best one")
    static let output = CommandOption.text(
        "output", valueName: "FILE", help: "write the Markdown to FILE (atomically) instead of standard output")
    static let first = PositionalArgument("DIR", help: "a sweep folder or a trial folder (SWEEP/trials/ID)")
    static let others = PositionalArgument(
        "DIR", help: "more sweep or trial folders; with --all, one folder is enough", isRepeated: true, optionalWith: all)

    static let specification = CommandSpecification(
        name: "compare",
        abstract: "compare sweep folders and trial folders (SWEEP/trials/ID): the settings that differ, then the scores "
            + "side by side, as Markdown; a sweep stands for its best configuration (rank 1 of its leaderboard), or "
            + "with --all for each of its configurations",
        arguments: [first, others], options: [all, output],
        tooFewArguments: { parsed in
            parsed.isSet(all) ? "missing \(first.name): give one or more sweep or trial folders"
                : "compare needs at least two folders (sweep or trial folders), found \(parsed.positionals.count)"
        })

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let folders = try [parsed.value(of: first)] + parsed.values(of: others)
            let comparison = try Comparison(
                folders: folders.map { URL(fileURLWithPath: $0, isDirectory: true) }, allConfigurations: parsed.isSet(all))
            if let output = try parsed.value(of: output) {
                let url = URL(fileURLWithPath: output)
                try comparison.write(to: url)
                Console.progress("comparison of \(comparison.runs.count) runs: \(url.path)")
            } else {
                print(comparison.markdown, terminator: "")
            }
        }
    }
}
