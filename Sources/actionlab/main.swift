import Foundation

/// `actionlab`: the command-line front end. Exit status 0 on success, 1 when the manifest or the
/// data is wrong or a run fails, 2 for wrong usage.
let usage = """
    usage: actionlab <command> [options]

    commands:
      validate MANIFEST            check a manifest; print the resolved configuration and the runs
      run MANIFEST [--output DIR] [--jobs N] [--threads N]
                                   run every trial (grid cell × seed), write the leaderboard
                                   and summary (default DIR: <output.directory>/<name>/<UTC time>)
      run SWEEP_DIR [--jobs N]     resume a sweep folder: finished trials are kept
      trial SWEEP_DIR INDEX        run one trial of a sweep folder (for cluster schedulers)

    options:
      -h, --help                   show this help
      --version                    print ActionLab's version
    """

var arguments = CommandLine.arguments.dropFirst()
let command = arguments.popFirst()
let status: Int32
switch command {
case "validate":
    status = ValidateCommand.main(arguments)
case "run":
    status = RunCommand.main(arguments)
case "trial":
    status = TrialCommand.main(arguments)
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
exit(status)
