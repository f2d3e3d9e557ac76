import ActionLabTestSupport
import Foundation
import Manifest
import ManifestSchema
import Sweeps
import Testing

/// The manifest's `launcher` section: read beside `sweep`, checked at its JSON path, overridden
/// by the command line key by key, documented in README.md from its declaration, and never part
/// of a trial's id.
@Suite struct LauncherConfigurationTests {
    static func manifest(launcher: String) throws -> String {
        let data = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        return """
            {
              name: "x",
              dataset: { sources: [{ format: "uea", path: "\(data.path)" }] },
              features: { layout: "accelerometer-gyroscope", frameRate: 10 },
              training: { seeds: [1, 2] },
              \(launcher)
            }
            """
    }

    static func parse(_ text: String) throws -> SweepPlan {
        try SweepPlan.parse(text: text, fileName: "experiments/x.json5", baseDirectory: URL(fileURLWithPath: "/tmp"))
    }

    @Test func theSectionIsReadAndLeavesTrialIdsAlone() throws {
        let plain = try Self.parse(try Self.manifest(launcher: ""))
        #expect(plain.launcher == LauncherConfiguration())
        let slurm = try Self.parse(try Self.manifest(launcher: """
            launcher: { kind: "slurm", partition: "cpu", time: "01:30:00", cpusPerTask: 4, memory: "8G", maxParallel: 10,
                        trialsPerTask: 2, sbatchArguments: ["--account=lab", "--qos=long"] },
            """))
        #expect(slurm.launcher.kind == .slurm)
        #expect(slurm.launcher.slurm == SlurmJobScript.Options(
            partition: "cpu", time: "01:30:00", cpusPerTask: 4, memory: "8G", maxParallel: 10, trialsPerTask: 2,
            extraArguments: ["--account=lab", "--qos=long"]))
        #expect(slurm.trials.map(\.id) == plain.trials.map(\.id))
        #expect(!slurm.trials[0].configuration.resolvedJSON().contains("launcher"))

        // The command line wins key by key; an empty --sbatch-arg list keeps the manifest's.
        let merged = slurm.launcher.overridden(by: SlurmJobScript.Options(time: "00:10:00", cpusPerTask: 1))
        #expect(merged == SlurmJobScript.Options(
            partition: "cpu", time: "00:10:00", cpusPerTask: 1, memory: "8G", maxParallel: 10, trialsPerTask: 2,
            extraArguments: ["--account=lab", "--qos=long"]))
    }

    @Test(arguments: [
        ("launcher: { kind: \"pbs\" },", "launcher.kind"),
        ("launcher: { cpusPerTask: 0 },", "launcher.cpusPerTask"),
        ("launcher: { partiton: \"cpu\" },", "launcher.partiton"),
        ("launcher: { time: \"\" },", "launcher.time: expected MM, MM:SS, HH:MM:SS"),
        ("launcher: { time: \"2\" },", "launcher.time: a task gets TERM one to two minutes before its time limit"),
        ("launcher: { time: \"1:30:00:00\" },", "launcher.time: expected MM, MM:SS"),
        ("launcher: { sbatchArguments: [\"account=lab\"] },", "launcher.sbatchArguments[0]: expected one sbatch option"),
        ("launcher: \"slurm\",", "launcher"),
        ("sweep: { grid: { \"launcher.partition\": [\"a\", \"b\"] } },", "cannot sweep 'launcher.partition'"),
        ("sweep: { grid: { \"model.stream\": [\"joint\", \"bone\"] }, ensembleWeights: { joint: 0, bone: 0, jointMotion: 0, boneMotion: 0 } },",
         "sweep.ensembleWeights: every stream's weight is 0"),
    ])
    func badValuesAreReportedAtTheirPath(section: String, message: String) throws {
        let error = #expect(throws: ManifestError.self) { try Self.parse(try Self.manifest(launcher: section)) }
        let description = error?.description ?? ""
        #expect(description.hasPrefix("experiments/x.json5:6:"), "\(description)")
        #expect(description.contains(message), "\(description)")
    }

    @Test func readmeDocumentsTheSection() throws {
        try ReadmeSection.expect(
            "launcher-keys", equals: ManifestReferenceRow.markdownTable(LauncherConfiguration.referenceRows(under: "launcher")))
    }
}
