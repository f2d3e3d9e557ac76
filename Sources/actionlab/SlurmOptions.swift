import Foundation
import Sweeps

/// The options of `run` and `extract` that choose the launcher and, with `--launcher slurm`,
/// the job array's resources: declared once, read into ``SlurmJobScript/Options``.
enum SlurmOptions {
    static let launcher = CommandOption.text(
        "launcher", valueName: "local|slurm",
        help: "where the work runs: local (here) or slurm (write a job script, submit it as a Slurm job array, print "
            + "the job ids and return; `actionlab status` follows it); default: the manifest's launcher.kind (local)")
    static let partition = CommandOption.text("partition", valueName: "P", help: "with --launcher slurm: sbatch --partition")
    static let time = CommandOption.text(
        "time", valueName: "T",
        help: "with --launcher slurm: each array task's time limit, as sbatch --time (MM, HH:MM:SS, D-HH), more than "
            + "two minutes; a task gets TERM one to two minutes before it and stops cleanly")
    static let cpusPerTask = CommandOption.positiveInteger(
        "cpus-per-task", valueName: "N",
        help: "with --launcher slurm: CPUs of each array task (default: training.threads for trials, 1 for extraction)")
    static let memory = CommandOption.text("mem", valueName: "M", help: "with --launcher slurm: sbatch --mem (8G, 4000M)")
    static let maxParallel = CommandOption.positiveInteger(
        "max-parallel", valueName: "K", help: "with --launcher slurm: at most K array tasks at once (the array's %K)")
    static let sbatchArgument = CommandOption.repeatedText(
        "sbatch-arg", valueName: "ARG",
        help: "with --launcher slurm: one more sbatch option, written as a #SBATCH line of the job script "
            + "(--sbatch-arg=--account=lab --sbatch-arg=--qos=long)")

    /// The resource options, in the order the help lists them.
    static let resources: [any DeclaredOption] = [partition, time, cpusPerTask, memory, maxParallel, sbatchArgument]

    /// The launcher `--launcher` names, or nil when it is not given (then the manifest's
    /// `launcher.kind` or the sweep folder's last launcher applies: ``check(_:_:slurmOnly:)``).
    /// - Throws: `UsageError` for another launcher than local or slurm, or for a resource option
    ///   (or one of `slurmOnly`) given with `--launcher local`.
    static func givenKind(_ parsed: CommandLineArguments, slurmOnly: [any DeclaredOption] = []) throws -> LauncherConfiguration.Kind? {
        guard let name = try parsed.value(of: launcher) else { return nil }
        guard let kind = LauncherConfiguration.Kind(rawValue: name) else {
            throw UsageError("--launcher \(name): expected local or slurm")
        }
        try check(kind, parsed, slurmOnly: slurmOnly)
        return kind
    }

    /// Checks that no resource option (nor one of `slurmOnly`) is given when the work runs on
    /// the local launcher.
    /// - Throws: `UsageError` naming the option.
    static func check(_ kind: LauncherConfiguration.Kind, _ parsed: CommandLineArguments, slurmOnly: [any DeclaredOption] = []) throws {
        guard kind == .local, let given = (resources + slurmOnly).first(where: { parsed.isGiven($0) }) else { return }
        throw UsageError("\(given.declaration.spelling) goes with the Slurm launcher: --launcher slurm, or launcher.kind \"slurm\" "
            + "in the manifest")
    }

    /// The job array's options as given.
    /// - Throws: `UsageError` for a value of the wrong kind, or an `--sbatch-arg` that is not
    ///   an option (`--account=lab`).
    static func options(_ parsed: CommandLineArguments, trialsPerTask: Int? = nil) throws -> SlurmJobScript.Options {
        let extra = try parsed.values(of: sbatchArgument)
        for argument in extra {
            if let problem = SlurmJobScript.problem(withExtraArgument: argument) {
                throw UsageError("--sbatch-arg '\(argument)': \(problem)")
            }
        }
        for option in [partition, time, memory] {
            if let value = try parsed.value(of: option), value.isEmpty || value.contains(where: \.isNewline) {
                throw UsageError("\(option.declaration.spelling) '\(value)': expected one line of text")
            }
        }
        if let value = try parsed.value(of: time), let problem = SlurmJobScript.problem(withTimeLimit: value) {
            throw UsageError("\(time.declaration.spelling) '\(value)': \(problem)")
        }
        if let value = try parsed.value(of: memory), let problem = SlurmJobScript.problem(withMemory: value) {
            throw UsageError("\(memory.declaration.spelling) '\(value)': \(problem)")
        }
        return SlurmJobScript.Options(
            partition: try parsed.value(of: partition), time: try parsed.value(of: time),
            cpusPerTask: try parsed.value(of: cpusPerTask), memory: try parsed.value(of: memory),
            maxParallel: try parsed.value(of: maxParallel), trialsPerTask: trialsPerTask, extraArguments: extra)
    }

    /// This `actionlab` executable, which the job script runs on the nodes.
    /// - Throws: `UsageError` when it cannot be found.
    static func executable() throws -> URL {
        guard let executable = Console.executable else {
            throw UsageError("--launcher slurm: cannot tell where this actionlab executable is, for the job script")
        }
        return executable
    }
}
