import Foundation

/// `actionlab`: the command-line front end. Exit status 0 on success, 1 when the manifest or the
/// data is wrong or a run fails, 2 for wrong usage.
let usage = """
    usage: actionlab <command> [options]

    commands:
      validate MANIFEST [--data]   check a manifest (and with --data its data); print the
                                   resolved configuration, the grid and the trials
      run MANIFEST [--output DIR] [--jobs N] [--threads N]
                                   run every trial (grid cell × seed), write the leaderboard
                                   and summary (default DIR: <output.directory>/<name>/<UTC time>;
                                   --jobs: trials at once, in worker processes;
                                   --threads: compute threads per trial, default training.threads)
      run MANIFEST --prepare [--output DIR]
                                   create the sweep folder and cache the data, run no trial
      run SWEEP_DIR [--jobs N]     resume a sweep folder: finished trials are kept
      trial SWEEP_DIR INDEX...     run trials of a sweep folder (for cluster schedulers)
      compare DIR DIR... [--all] [--output FILE]
                                   compare sweep folders and trial folders (SWEEP/trials/ID):
                                   the settings that differ, then the scores side by side, as
                                   Markdown; a sweep stands for its best configuration, or with
                                   --all for each of its configurations
      synth --output DIR [--classes a,b,...] [--sequences-per-class N] [--seed S]
            [--frame-rate FPS] [--duration SECONDS]
                                   write a SYNTHETIC labelled keypoint-CSV dataset of parametric
                                   motions (classes: arm-raise, squat, jumping-jack,
                                   walking-in-place, idle, arm-circles, side-bend, punch;
                                   default: the first six, 20 each, seed 0, 30 fps, 3 s)
      export DIR --output OUTDIR [--trial ID] [--format onnx,safetensors,h5]
                                   export the best trial of a report (highest validation
                                   accuracy), or the trial folder DIR, with a model card
      extract MANIFEST             extract the poses of every video source into the feature
                                   cache (a progress bar on a terminal); prints cache hits,
                                   new extractions and failures (exit 1 if any video failed)
      check MANIFEST [--output DIR]
                                   Create ML's training-data checklist of the videos as
                                   check.md, videos.csv and labels.csv (default DIR:
                                   <output.directory>/<name>/check)
      info                         print versions, the CPU and the OpenBLAS kernel in use

    environment:
      OPENBLAS_CORETYPE            force an OpenBLAS kernel (default: the best one the CPU's
                                   flags allow, checked at start-up; see 'actionlab info')

    options:
      -h, --help                   show this help
      --version                    print ActionLab's version
    """

// Before anything else: the process may be replaced by itself on a better OpenBLAS kernel.
KernelStartup.run()

Console.markStart()
var arguments = CommandLine.arguments.dropFirst()
let command = arguments.popFirst()
let status: Int32
// `actionlab COMMAND --help` shows the usage too (every command's options are listed there).
let asksForHelp = command != nil && arguments.contains { $0 == "-h" || $0 == "--help" }
switch asksForHelp ? "--help" : command {
case "validate":
    status = ValidateCommand.main(arguments)
case "run":
    status = RunCommand.main(arguments)
case "trial":
    status = TrialCommand.main(arguments)
case "compare":
    status = CompareCommand.main(arguments)
case "synth":
    status = SynthCommand.main(arguments)
case "info":
    status = InfoCommand.main(arguments)
case "extract":
    status = ExtractCommand.main(arguments)
case "check":
    status = CheckCommand.main(arguments)
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
