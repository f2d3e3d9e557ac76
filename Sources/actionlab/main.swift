import Foundation

/// `actionlab`: the command-line front end. Exit status 0 on success, 1 when the manifest or the
/// data is wrong or a run fails, 2 for wrong usage.
let usage = """
    usage: actionlab <command> [options]

    commands:
      validate MANIFEST            check a manifest; print the resolved configuration and the runs
      run MANIFEST [--output DIR]  train and evaluate every seed and write the report
                                   (default DIR: <output.directory>/<name>/<UTC timestamp>)
      export DIR --output OUTDIR [--trial ID] [--format onnx,safetensors,h5]
                                   export the best trial of a report (highest validation
                                   accuracy), or the trial folder DIR, with a model card

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
case "export":
    status = ExportCommand.main(arguments)
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
