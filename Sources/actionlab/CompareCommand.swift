import Foundation
import Sweeps

/// `actionlab compare DIR DIR... [--all] [--output FILE]`: compares sweep folders and trial
/// folders (`<sweep>/trials/<id>`), printing Markdown: the runs, the settings whose values
/// differ, then the scores side by side.
///
/// A sweep folder stands for its best configuration (rank 1 of its leaderboard), or with
/// `--all` for each of its configurations. `--output FILE` writes the Markdown to FILE
/// (atomically) instead of standard output.
enum CompareCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: ["output"], flags: ["all"])
            let all = parsed.options["all"] != nil
            guard parsed.positionals.count >= (all ? 1 : 2) else {
                throw UsageError(all ? "missing DIR: give one or more sweep or trial folders"
                                     : "compare needs at least two folders (sweep or trial folders), found \(parsed.positionals.count)")
            }
            let comparison = try Comparison(folders: parsed.positionals.map { URL(fileURLWithPath: $0, isDirectory: true) }, allConfigurations: all)
            if let output = parsed.options["output"] {
                let url = URL(fileURLWithPath: output)
                try comparison.write(to: url)
                Console.progress("comparison of \(comparison.runs.count) runs: \(url.path)")
            } else {
                print(comparison.markdown, terminator: "")
            }
        }
    }
}
