import Foundation
import Sweeps
import Testing

/// The job script `run --launcher slurm` writes: directives, task grouping, quoting.
@Suite struct SlurmJobScriptTests {
    let folder = URL(fileURLWithPath: "/shared/sweeps/basic motions", isDirectory: true)
    let executable = URL(fileURLWithPath: "/opt/actionlab/bin/actionlab")

    @Test func oneTrialPerTaskWithTheGivenDirectives() {
        let options = SlurmJobScript.Options(
            partition: "gpu", time: "02:00:00", memory: "8G", maxParallel: 4, extraArguments: ["--account=lab"])
        let script = SlurmJobScript(trials: [0, 2, 5], sweepFolder: folder, executable: executable, name: "actionlab-x",
                                    options: options, threads: 2)
        #expect(script.tasks == [[0], [2], [5]])
        let lines = script.text.split(separator: "\n").map(String.init)
        for directive in ["#SBATCH --array=0-2%4", "#SBATCH --partition=gpu", "#SBATCH --time=02:00:00", "#SBATCH --mem=8G",
                          "#SBATCH --cpus-per-task=2", "#SBATCH --account=lab",
                          "#SBATCH --output='/shared/sweeps/basic motions/slurm/logs/%A_%a.out'"] {
            #expect(lines.contains(directive), "\(directive) missing from:\n\(script.text)")
        }
        #expect(lines.contains("tasks=(\"0\" \"2\" \"5\")"))
        #expect(lines.contains { $0.hasPrefix("/opt/actionlab/bin/actionlab trial '/shared/sweeps/basic motions' ${tasks[$SLURM_ARRAY_TASK_ID]}") })
        // Every #SBATCH line comes before the first command, as sbatch requires.
        let lastDirective = lines.lastIndex { $0.hasPrefix("#SBATCH") } ?? 0
        let firstCommand = lines.firstIndex { !$0.hasPrefix("#") } ?? lines.count
        #expect(lastDirective < firstCommand)
    }

    @Test func trialsPerTaskAndTheArraySizeLimitGroupTrials() {
        let grouped = SlurmJobScript(trials: Array(0..<7), sweepFolder: folder, executable: executable, name: "n",
                                     options: .init(trialsPerTask: 3), threads: 1)
        #expect(grouped.tasks == [[0, 1, 2], [3, 4, 5], [6]])
        #expect(grouped.text.contains("#SBATCH --array=0-2\n"))
        let large = SlurmJobScript(trials: Array(0..<2500), sweepFolder: folder, executable: executable, name: "n",
                                   options: .init(), threads: 1)
        #expect(large.tasks.count <= SlurmJobScript.maxArrayTasks)
        #expect(large.tasks.flatMap { $0 } == Array(0..<2500))
    }
}
