import Foundation
import JSON5
import ManifestSchema

/// A manifest's `launcher` section: where `actionlab run MANIFEST` and `actionlab extract
/// MANIFEST` run their work, and the Slurm job array's resources, the same settings as the
/// command-line options `--launcher`, `--partition`, `--time`, `--cpus-per-task`, `--mem`,
/// `--max-parallel`, `--trials-per-task` and `--sbatch-arg`, which override them key by key.
///
/// Read by ``SweepPlan`` beside `sweep`, not part of any trial's configuration: where a trial
/// runs does not change what it computes, so the launcher never changes a trial's id.
public struct LauncherConfiguration: Sendable, Equatable {
    /// Where the work runs.
    public enum Kind: String, Sendable, Codable, ManifestChoice {
        /// On this machine (`run`'s `--jobs` workers).
        case local
        /// As a Slurm job array (``SlurmLauncher``).
        case slurm
    }

    public var kind: Kind = .local
    /// The job array's resources; ``SlurmJobScript/Options/trialsPerTask`` applies to trials only.
    public var slurm = SlurmJobScript.Options()

    public init(kind: Kind = .local, slurm: SlurmJobScript.Options = .init()) {
        self.kind = kind
        self.slurm = slurm
    }

    /// `options` where given, this section's values elsewhere.
    public func overridden(by options: SlurmJobScript.Options) -> SlurmJobScript.Options {
        SlurmJobScript.Options(
            partition: options.partition ?? slurm.partition, time: options.time ?? slurm.time,
            cpusPerTask: options.cpusPerTask ?? slurm.cpusPerTask, memory: options.memory ?? slurm.memory,
            maxParallel: options.maxParallel ?? slurm.maxParallel, trialsPerTask: options.trialsPerTask ?? slurm.trialsPerTask,
            extraArguments: options.extraArguments.isEmpty ? slurm.extraArguments : options.extraArguments)
    }
}

extension LauncherConfiguration {
    /// The `launcher` section of the manifest a sweep folder was made from (`manifest.json5`),
    /// so that `run DIR` runs where `run MANIFEST` would have; nil when the folder keeps no
    /// manifest, or its manifest has no valid section.
    public static func ofManifest(in sweepFolder: URL) -> LauncherConfiguration? {
        guard let data = FileManager.default.contents(atPath: sweepFolder.appendingPathComponent("manifest.json5").path),
              let document = try? JSON5Value(parsing: data, filePath: "manifest.json5"), let member = document["launcher"]
        else { return nil }
        let diagnostics = ManifestDiagnostics(baseDirectory: sweepFolder)
        let node = ManifestNode(value: member, path: JSONPath.root.appending(key: "launcher"), diagnostics: diagnostics)
        guard let launcher = node.object({ LauncherConfiguration(readingSettingsOf: $0) }), diagnostics.issues.isEmpty else { return nil }
        return launcher
    }
}

extension LauncherConfiguration: ManifestSection {
    package static var defaults: LauncherConfiguration { LauncherConfiguration() }

    package static var settings: [Setting<LauncherConfiguration>] {
        [
            Setting("kind", \.kind, .choice(Kind.self),
                    "where `run MANIFEST` and `extract MANIFEST` run: here, or as a Slurm job array (`--launcher`)"),
            Setting("partition", \.slurm.partition, .optional(oneLine), "Slurm: `sbatch --partition` (`--partition`); default: the cluster's"),
            Setting("time", \.slurm.time, .optional(timeLimit),
                    "Slurm: each array task's time limit, as `sbatch --time` (`MM`, `HH:MM:SS`, `D-HH`; `--time`); default: the partition's"),
            Setting("cpusPerTask", \.slurm.cpusPerTask, .optional(.integer(.atLeast(1))),
                    "Slurm: CPUs of each array task (`--cpus-per-task`); default `training.threads` for trials, 1 for extraction"),
            Setting("memory", \.slurm.memory, .optional(memorySize), "Slurm: `sbatch --mem`, such as `\"8G\"` (`--mem`); default: the partition's"),
            Setting("maxParallel", \.slurm.maxParallel, .optional(.integer(.atLeast(1))),
                    "Slurm: at most this many array tasks at once, the array's `%K` (`--max-parallel`); default: no limit"),
            Setting("trialsPerTask", \.slurm.trialsPerTask, .optional(.integer(.atLeast(1))),
                    "Slurm: trials each array task runs one after another (`--trials-per-task`); default 1, more above 1000 trials"),
            Setting("sbatchArguments", \.slurm.extraArguments, .list(sbatchArgument),
                    "Slurm: further `sbatch` options, each a `#SBATCH` line, such as `[\"--account=lab\", \"--qos=long\"]` (`--sbatch-arg`)"),
        ]
    }

    /// A non-empty string of one line (it becomes part of a `#SBATCH` line).
    private static var oneLine: SettingKind<String> {
        SettingKind(type: "string", bounds: "one line, not empty", describe: { JSONStringEscaping.quoted($0) }) { node in
            guard let text = node.string() else { return nil }
            guard !text.isEmpty, !text.contains(where: \.isNewline) else {
                node.report("expected one line of text, not empty")
                return nil
            }
            return text
        }
    }

    /// A task time limit in `sbatch --time`'s forms, of more than two minutes.
    private static var timeLimit: SettingKind<String> {
        checkedText(bounds: "MM, HH:MM:SS, D-HH…, more than 2 minutes", SlurmJobScript.problem(withTimeLimit:))
    }

    /// Memory in `sbatch --mem`'s form: `8G`, `4000M`, `4000` (megabytes), or `0`.
    private static var memorySize: SettingKind<String> {
        checkedText(bounds: "a size such as `8G` or `4000M`, or `0`", SlurmJobScript.problem(withMemory:))
    }

    /// One `sbatch` option: one line starting with `-`.
    private static var sbatchArgument: SettingKind<String> {
        checkedText(bounds: "an sbatch option, such as `--account=lab`, not one the launcher sets",
                    SlurmJobScript.problem(withExtraArgument:))
    }

    /// A string that `problem` finds nothing wrong with; what it finds is reported at the setting.
    private static func checkedText(bounds: String, _ problem: @escaping (String) -> String?) -> SettingKind<String> {
        SettingKind(type: "string", bounds: bounds, describe: { JSONStringEscaping.quoted($0) }) { node in
            guard let text = node.string() else { return nil }
            if let problem = problem(text) {
                node.report("\(problem), found \(JSONStringEscaping.quoted(text))")
                return nil
            }
            return text
        }
    }
}

extension LauncherConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
