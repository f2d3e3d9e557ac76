import BuildInfo
import Foundation
import NeuralNetwork
import Reports

// `actionlab`: the command-line front end. Exit status 0 on success, 1 when the manifest or the
// data is wrong or a run fails, 2 for wrong usage.

/// Every subcommand, in the order the general usage lists them.
let subcommands: [any Subcommand.Type] = [
    ValidateCommand.self, RunCommand.self, TrialCommand.self, StatusCommand.self, CompareCommand.self, MLflowCommand.self, SynthCommand.self,
    ExportCommand.self, PredictCommand.self, ExtractCommand.self, CheckCommand.self, InfoCommand.self,
]
let usage = GeneralUsage(commands: subcommands.map { $0.specification }).text

// Before anything else: the process may be replaced by itself on a better OpenBLAS kernel.
KernelStartup.run()

Console.markStart()
// The commit this executable was built from, for provenance.json, model cards and MLflow.
Provenance.buildGitCommit = BuildInfo.gitCommit
// How compute threads wait between operations (the results do not depend on it).
do {
    try ComputeThreads.applyWaitPolicy(from: ProcessInfo.processInfo.environment)
} catch {
    Console.error("error: \(error)")
    exit(2)
}
var arguments = CommandLine.arguments.dropFirst()
let command = arguments.popFirst()
let status: Int32
// `actionlab COMMAND --help` (or `-h`, anywhere after the command) shows that command's help;
// after anything but a command, the general usage.
let asksForHelp = command != nil && arguments.contains { $0 == "-h" || $0 == "--help" }
if let subcommand = subcommands.first(where: { $0.specification.name == command }) {
    if asksForHelp {
        print(subcommand.specification.help)
        status = 0
    } else {
        status = subcommand.main(arguments)
    }
} else {
    switch asksForHelp ? "--help" : command {
    case "-h", "--help", "help":
        print(usage)
        status = 0
    case "--version":
        print(ValidateCommand.version)
        status = 0
    case let other:
        Console.error(other.map { "unknown command '\($0)'" } ?? "missing command")
        Console.error(usage)
        status = 2
    }
}
exit(status)
