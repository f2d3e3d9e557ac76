import ActionLabTestSupport
import Foundation
import Testing

/// `actionlab extract MANIFEST --launcher slurm` on the one-node cluster of `scripts/slurm-local`:
/// the shards of a real video folder, one per array task, leave every video in the cache once.
@Suite struct SlurmExtractionTests {
    @Test func everyVideoIsExtractedOnceThroughTheArray() throws {
        try SlurmLauncherTests.requireCluster()
        let directory = try TemporaryDirectory()
        let count = 5
        for index in 0..<count {
            try VideoDatasetTests.vtestClip(directory.file("data/street/clip\(index).avi"), start: Double(index) * 2, seconds: 2)
        }
        try VideoDatasetTests.write(
            """
            { name: "sharded", dataset: { sources: [{ format: "video", path: "data" }] }, features: { frameRate: 10, cache: "cache" } }
            """, to: directory.file("sharded.json5"))
        let submitted = try CommandLineTool.run(
            ["extract", "sharded.json5", "--launcher", "slurm", "--shards", "2", "--output", "job"], in: directory.url)
        try #require(submitted.status == 0, "\(submitted.errorOutput)")
        #expect(submitted.errorOutput.contains("5 videos in 2 shards"), "\(submitted.errorOutput)")
        let script = try String(contentsOf: directory.file("job/extract.sbatch"), encoding: .utf8)
        #expect(script.contains("#SBATCH --array=0-1\n") && script.contains("--shard \"$SLURM_ARRAY_TASK_ID/2\""), "\(script)")

        let deadline = Date().addingTimeInterval(300)
        var status = ""
        while Date() < deadline {
            status = try CommandLineTool.run(["status", directory.file("job").path], in: directory.url).output
            if !status.contains("running") && !status.contains("pending") { break }
            Thread.sleep(forTimeInterval: 2)
        }
        #expect(status.hasSuffix("2 finished\n"), "\(status)")

        // Each video once: 5 entries, no temporary file, and the shards' new extractions add up to 5.
        let files = (FileManager.default.enumerator(atPath: directory.file("cache").path)?.allObjects as? [String]) ?? []
        #expect(files.filter { $0.hasSuffix(".h5") }.count == count, "\(files)")
        #expect(!files.contains { $0.hasSuffix(".tmp") }, "\(files)")
        let logs = try (0..<2).map { shard in
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.file("job/logs").path)
                .first { $0.hasSuffix("_\(shard).out") })
            return try String(contentsOf: directory.file("job/logs/\(name)"), encoding: .utf8)
        }
        #expect(logs[0].contains("videos: 3, cache hits: 0, new extractions: 3"), "\(logs[0])")
        #expect(logs[1].contains("videos: 2, cache hits: 0, new extractions: 2"), "\(logs[1])")
        #expect(logs[0].contains("(shard 0/2 of 5 videos)") && logs[1].contains("(shard 1/2 of 5 videos)"))

        // A later extraction finds every entry.
        let again = try CommandLineTool.run(["extract", "sharded.json5"], in: directory.url)
        #expect(again.status == 0, "\(again.errorOutput)")
        #expect(again.output.contains("videos: 5, cache hits: 5, new extractions: 0"), "\(again.output)")
    }

    /// A submission sbatch refuses (a fake sbatch on the PATH) says so and how to go on; its job
    /// folder, which holds only the refused script, takes the next submission (trial 5).
    @Test func aRefusedExtractionSaysHowToGoOnAndReusesItsFolder() throws {
        let directory = try TemporaryDirectory()
        try VideoDatasetTests.vtestClip(directory.file("data/street/clip0.avi"), start: 0, seconds: 1)
        try VideoDatasetTests.write(
            """
            { name: "refused", dataset: { sources: [{ format: "video", path: "data" }] }, features: { frameRate: 10, cache: "cache" } }
            """, to: directory.file("refused.json5"))
        let bin = directory.file("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let sbatch = bin.appendingPathComponent("sbatch")
        try Data("#!/bin/sh\necho 'sbatch: error: invalid partition specified: nosuch' >&2\nexit 1\n".utf8).write(to: sbatch)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sbatch.path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let arguments = ["extract", "refused.json5", "--launcher", "slurm", "--partition", "nosuch", "--output", "job"]

        let refused = try CommandLineTool.run(arguments, in: directory.url, environment: ["PATH": path])
        #expect(refused.status == 1, "\(refused.errorOutput)")
        #expect(refused.errorOutput.contains("extraction not submitted: sbatch refused \(directory.file("job").path)/extract.sbatch; "
            + "once the cause below is fixed, the same command submits again into it"), "\(refused.errorOutput)")
        #expect(refused.errorOutput.contains("invalid partition specified: nosuch"), "\(refused.errorOutput)")

        // Into the same folder: refused again, for the same reason, not for a folder that is not empty.
        let again = try CommandLineTool.run(arguments, in: directory.url, environment: ["PATH": path])
        #expect(again.status == 1 && again.errorOutput.contains("invalid partition specified: nosuch"), "\(again.errorOutput)")
        #expect(!again.errorOutput.contains("not empty"), "\(again.errorOutput)")

        // A folder with anything else in it is still refused.
        try Data("x".utf8).write(to: directory.file("job/logs/1_0.out"))
        let used = try CommandLineTool.run(arguments, in: directory.url, environment: ["PATH": path])
        #expect(used.status == 1 && used.errorOutput.contains("the extraction job folder is not empty"), "\(used.errorOutput)")
    }
}
