import ActionLabTestSupport
import Foundation
import Testing

/// `actionlab --help`, `actionlab COMMAND --help` and the usage errors, through the real
/// executable. Each command declares its arguments and options once; these tests check that the
/// parser, the command's help, the general usage and README.md all show the same declarations.
@Suite struct UsageTests {
    /// Every command in the order the general usage lists them, with the options it declares
    /// (sorted, as the unknown-option error lists them).
    static let commands: [(name: String, options: [String])] = [
        ("validate", ["--data"]),
        ("run", [
            "--cpus-per-task", "--jobs", "--launcher", "--max-parallel", "--mem", "--output", "--partition", "--prepare",
            "--reports-only", "--sbatch-arg", "--threads", "--time", "--trials-per-task", "--workers",
        ]),
        ("trial", []),
        ("status", []),
        ("compare", ["--all", "--output"]),
        ("mlflow", ["--experiment", "--tracking-uri"]),
        ("synth", ["--classes", "--duration", "--frame-rate", "--output", "--seed", "--sequences-per-class"]),
        ("export", ["--ensemble", "--format", "--output", "--seed", "--trial"]),
        ("predict", [
            "--cache", "--hold", "--input-format", "--json", "--live", "--min-pose", "--output", "--refractory", "--smoothing", "--stride",
            "--threshold", "--window-duration", "--workers",
        ]),
        ("extract", [
            "--cpus-per-task", "--launcher", "--max-parallel", "--mem", "--output", "--partition", "--sbatch-arg", "--shard", "--shards",
            "--time", "--workers",
        ]),
        ("check", ["--output"]),
        ("info", []),
    ]
    static let commandNames = commands.map(\.name)

    static func options(of command: String) -> [String] {
        commands.first { $0.name == command }?.options ?? []
    }

    /// Runs `actionlab arguments...` in a scratch folder (usage never reads or writes files),
    /// without `MLFLOW_TRACKING_URI`, which `mlflow` would take for its missing option.
    static func run(_ arguments: [String]) throws -> CommandLineTool.Result {
        let directory = try TemporaryDirectory(prefix: "actionlab-usage")
        return try CommandLineTool.run(arguments, in: directory.url, environment: ["MLFLOW_TRACKING_URI": nil])
    }

    /// The lines of `text` from the line after `header` up to the next empty line.
    static func section(_ header: String, of text: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: header) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// The names of the rows of a help section: each row starts two spaces in; continuation
    /// lines start further in.
    static func rowTerms(_ lines: [String]) -> [String] {
        lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map { line in
            let term = line.dropFirst(2)
            return String(term.prefix { $0 != " " })
        }
    }

    /// The rule: the text between the first code fence after README.md's `## Commands` heading
    /// and the next fence (each fence a line of its own, three backticks) is exactly the standard
    /// output of `actionlab --help`, byte for byte, final newline included; nothing is stripped.
    @Test func readmeCommandsBlockIsTheGeneralUsage() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        let readme = try String(contentsOf: TestData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let heading = try #require(readme.range(of: "\n## Commands\n"), "README.md has no '## Commands' section")
        let opening = try #require(readme.range(of: "\n```\n", range: heading.upperBound..<readme.endIndex))
        let closing = try #require(readme.range(of: "\n```\n", range: opening.upperBound..<readme.endIndex))
        let block = String(readme[opening.upperBound..<closing.lowerBound]) + "\n"
        let blockLines = block.components(separatedBy: "\n"), helpLines = help.output.components(separatedBy: "\n")
        let firstDifference = zip(blockLines, helpLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(blockLines.count, helpLines.count)
        #expect(block == help.output, """
            README.md's Commands block differs from `actionlab --help` at line \(firstDifference + 1) of the block: \
            paste the output of `actionlab --help` into the block.
            README: \(blockLines.indices.contains(firstDifference) ? blockLines[firstDifference] : "(end)")
            --help: \(helpLines.indices.contains(firstDifference) ? helpLines[firstDifference] : "(end)")
            """)
    }

    @Test func generalUsageListsEveryCommandAndTheGlobalSections() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: actionlab <command> [options]\n"))
        #expect(Self.rowTerms(Self.section("commands:", of: help.output)) == Self.commandNames)
        #expect(Self.rowTerms(Self.section("environment:", of: help.output)) == ["ACTIONLAB_WAIT_POLICY", "OPENBLAS_CORETYPE"])
        #expect(Self.rowTerms(Self.section("options:", of: help.output)) == ["-h,", "--version"])
        #expect(help.output.split(separator: "\n").allSatisfy { $0.count <= 100 && !$0.hasSuffix(" ") },
                "lines of at most 100 characters without trailing spaces")
        // Anything that is not a command, with --help, shows the general usage too.
        let other = try Self.run(["fly", "--help"])
        #expect(other.status == 0 && other.output == help.output)
    }

    /// `actionlab COMMAND --help` and `-h` (anywhere after the command) print that command's own
    /// help and exit 0 without running it: its usage line, the abstract the general usage shows,
    /// and a row for each declared option.
    @Test(arguments: commandNames, [["--help"], ["-h"], ["missing.json5", "--help"]])
    func everyCommandHasItsOwnHelp(command: String, request: [String]) throws {
        let help = try Self.run([command] + request)
        #expect(help.status == 0, "stderr: \(help.errorOutput)")
        #expect(help.output.hasPrefix("usage: actionlab \(command)"), "\(help.output)")
        #expect(!help.output.contains("commands:"), "the command's help, not the general usage")
        let optionRows = Self.rowTerms(Self.section("options:", of: help.output))
        #expect(optionRows.sorted() == (Self.options(of: command) + ["-h,"]).sorted(), "options listed: \(optionRows)")
        #expect(optionRows.last == "-h,")
        #expect(help.output.split(separator: "\n").allSatisfy { $0.count <= 100 && !$0.hasSuffix(" ") })

        // The command's row in the general usage: its usage line, then its abstract from column 31.
        let general = try Self.run(["--help"])
        let rows = Self.section("commands:", of: general.output)
        let start = try #require(rows.firstIndex { $0.hasPrefix("  \(command) ") || $0 == "  \(command)" })
        let end = rows[(start + 1)...].firstIndex { $0.hasPrefix("  ") && !$0.hasPrefix("   ") } ?? rows.endIndex
        // Help text starts at column 31: after 31 spaces, or after the term and a gap of at least two.
        let abstract = rows[start..<end].compactMap { line -> String? in
            let characters = Array(line)
            guard characters.count > 31, characters[29] == " ", characters[30] == " ", characters[31] != " " else { return nil }
            return String(characters[31...])
        }.joined(separator: " ")
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(!abstract.isEmpty)
        #expect(words(help.output).contains(words(abstract)), "the abstract '\(abstract)' is missing from the command's help")
    }

    /// An unknown option is a usage error (exit status 2) that names every option the command
    /// declares, sorted, as it did before the declarations, and points to the command's help.
    @Test(arguments: commandNames)
    func unknownOptionNamesTheKnownOptions(command: String) throws {
        let result = try Self.run([command, "--frobnicate"])
        #expect(result.status == 2)
        let options = Self.options(of: command)
        let expected = "error: unknown option --frobnicate" + (options.isEmpty ? "" : " (options: \(options.joined(separator: ", ")))")
        let lines = result.errorOutput.components(separatedBy: "\n")
        #expect(lines.contains(expected), "stderr: \(result.errorOutput)")
        #expect(lines.contains("run 'actionlab \(command) --help' for usage"), "stderr: \(result.errorOutput)")
        #expect(result.output.isEmpty)
    }

    /// A command line and the first error line it gives.
    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let status: Int32
        let error: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// The parser's errors, made from the declarations, with the messages they had before them.
    @Test(arguments: [
        Case(arguments: ["run", "--output"], status: 2, error: "option --output needs a value"),
        Case(arguments: ["validate", "m.json5", "--data=yes"], status: 2, error: "option --data takes no value"),
        Case(arguments: ["run", "m.json5", "--jobs=0"], status: 2, error: "--jobs takes a whole number of at least 1, found '0'"),
        Case(arguments: ["run", "m.json5", "--threads", "100000"], status: 2, error: "--threads takes at most 1024 threads, found 100000"),
        Case(arguments: ["run", "m.json5", "--jobs", "99999999999999999999"], status: 2,
             error: "--jobs takes a whole number of at least 1 and at most 9223372036854775807, found '99999999999999999999', which is too large"),
        Case(arguments: ["run", "m.json5", "--jobs", "2", "--threads", "two"], status: 2,
             error: "--threads takes a whole number of at least 1, found 'two'"),
        Case(arguments: ["validate"], status: 2, error: "missing MANIFEST"),
        Case(arguments: ["run", "a.json5", "b.json5"], status: 2, error: "expected one MANIFEST or SWEEP_DIR, found 2 arguments"),
        Case(arguments: ["info", "x"], status: 2, error: "info takes no arguments"),
        Case(arguments: ["synth", "x", "--output", "o"], status: 2, error: "synth takes options only, found 'x'"),
        Case(arguments: ["synth", "--output", "o", "--seed", "-1"], status: 2, error: "--seed needs a number, got '-1'"),
        Case(arguments: ["synth", "--output", "o", "--sequences-per-class", "0"], status: 2,
             error: "sequences per class = 0: must be at least 1"),
        Case(arguments: ["export", "somewhere"], status: 2,
             error: "missing --output OUTDIR, the folder to write the exported model into"),
        // An empty value is no folder (it meant the current directory, which predict, export and check then filled).
        Case(arguments: ["export", "somewhere", "--output", ""], status: 2, error: "--output needs a value, got an empty one"),
        Case(arguments: ["predict", "somewhere", "x.ts", "--output", ""], status: 2, error: "--output needs a value, got an empty one"),
        Case(arguments: ["check", "m.json5", "--output", ""], status: 2, error: "--output needs a value, got an empty one"),
        Case(arguments: ["export", "somewhere", "--output", "o", "--seed", "2"], status: 2, error: "--seed goes with --ensemble"),
        Case(arguments: ["export", "somewhere", "--output", "o", "--ensemble", "--format", "onnx"], status: 2,
             error: "--format does not go with --ensemble (an ensemble is exported as ONNX, with each member's weights.h5)"),
        Case(arguments: ["trial", "sweep"], status: 2,
             error: "expected SWEEP_DIR and one or more trial INDEX values (whole numbers from 0)"),
        Case(arguments: ["trial", "sweep", "-1"], status: 2, error: "'-1' is not a trial index: expected a whole number from 0"),
        Case(arguments: ["compare", "--all"], status: 2, error: "missing DIR: give one or more sweep or trial folders"),
        // After `--`, `--all` is a folder name, not the flag: one folder is too few without it.
        Case(arguments: ["compare", "--", "--all"], status: 2,
             error: "compare needs at least two folders (sweep or trial folders), found 1"),
        Case(arguments: ["mlflow", "sweep"], status: 2,
             error: "missing --tracking-uri URI (or MLFLOW_TRACKING_URI): the MLflow server to log to, http://HOST:PORT"),
        Case(arguments: ["mlflow", "sweep", "--tracking-uri", "localhost:5000"], status: 1,
             error: "'localhost:5000' is not a tracking server URL: give http://HOST:PORT"),
        // The launcher's options: checked before the manifest is read.
        Case(arguments: ["run", "m.json5", "--launcher", "pbs"], status: 2, error: "--launcher pbs: expected local or slurm"),
        Case(arguments: ["run", "m.json5", "--launcher", "local", "--sbatch-arg=--qos=long"], status: 2,
             error: "--sbatch-arg goes with the Slurm launcher: --launcher slurm, or launcher.kind \"slurm\" in the manifest"),
        Case(arguments: ["run", "m.json5", "--launcher", "slurm", "--jobs", "2"], status: 2,
             error: "--launcher slurm runs the trials as a job array: --jobs and --prepare go with the local launcher"),
        Case(arguments: ["run", "m.json5", "--launcher", "slurm", "--sbatch-arg", "qos=long"], status: 2,
             error: "--sbatch-arg 'qos=long': expected one sbatch option, such as --account=lab"),
        Case(arguments: ["run", "m.json5", "--launcher", "slurm", "--sbatch-arg=--array=0-3"], status: 2,
             error: "--sbatch-arg '--array=0-3': --array is set by the launcher (the launcher makes the array)"),
        Case(arguments: ["extract", "m.json5", "--shard", "2/2"], status: 2, error: "--shard '2/2': expected I/N with 0 ≤ I < N, such as 0/4"),
        Case(arguments: ["extract", "m.json5", "--launcher", "local", "--shards", "4"], status: 2,
             error: "--shards goes with the Slurm launcher: --launcher slurm, or launcher.kind \"slurm\" in the manifest"),
        Case(arguments: ["extract", "m.json5", "--launcher", "slurm", "--shard", "0/2"], status: 2,
             error: "--shard goes with the local launcher: --launcher slurm gives each array task its shard"),
        // `--name=value` and `--` are accepted: these fail only on the missing manifest.
        Case(arguments: ["run", "missing.json5", "--jobs=2", "--output=out"], status: 1, error: "missing.json5: no such file"),
        Case(arguments: ["validate", "--", "missing.json5"], status: 1, error: "missing.json5: no such file"),
    ])
    func parsingErrors(case example: Case) throws {
        let result = try Self.run(example.arguments)
        #expect(result.status == example.status, "stderr: \(result.errorOutput)")
        let errorLine = result.errorOutput.components(separatedBy: "\n").first { $0.hasPrefix("error: ") }
        #expect(errorLine?.contains(example.error) == true, "stderr: \(result.errorOutput)")
        if example.status == 2 {
            #expect(errorLine == "error: \(example.error)", "stderr: \(result.errorOutput)")
        }
    }

    /// `ACTIONLAB_WAIT_POLICY` other than `active` or `passive` is a usage error that names the
    /// variable and the value, before any command runs; `passive` and `active` run the command.
    @Test func waitPolicyVariableIsChecked() throws {
        let directory = try TemporaryDirectory(prefix: "actionlab-usage")
        let wrong = try CommandLineTool.run(["info"], in: directory.url, environment: ["ACTIONLAB_WAIT_POLICY": "lazy"])
        #expect(wrong.status == 2, "stderr: \(wrong.errorOutput)")
        #expect(wrong.output.isEmpty)
        #expect(wrong.errorOutput.contains("error: ACTIONLAB_WAIT_POLICY must be active or passive, got 'lazy'"),
                "stderr: \(wrong.errorOutput)")
        for policy in ["active", "passive"] {
            let result = try CommandLineTool.run(["info"], in: directory.url, environment: ["ACTIONLAB_WAIT_POLICY": policy])
            #expect(result.status == 0, "\(policy): \(result.errorOutput)")
            #expect(result.output.contains("openblas kernel: "), "\(policy)")
        }
    }
}
