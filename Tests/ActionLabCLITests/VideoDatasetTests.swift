import ActionLabTestSupport
import FeatureCache
import Foundation
import Testing

/// `extract`, `check` and `run` on videos made from the real data (messi5.jpg, vtest.avi) that
/// `scripts/setup` fetches, with MediaPipe's library and model.
@Suite(.serialized) struct VideoDatasetTests {
    static func ffmpeg(_ arguments: [String]) throws {
        try FFmpegTool.run(arguments)
    }

    /// A 2-s clip panning over messi5.jpg (the person moves), starting at `phase` seconds.
    static func messiClip(_ url: URL, phase: Double) throws {
        try ffmpeg([
            "-loop", "1", "-framerate", "30", "-i", try TestData.file("opencv/messi5.jpg").path, "-t", "2",
            "-vf", "crop=508:318:20+20*sin(2*PI*(t+\(phase))/2):12+12*cos(2*PI*(t+\(phase))/2)", "-c:v", "libx264",
            "-pix_fmt", "yuv420p", url.path,
        ])
    }

    /// `seconds` of vtest.avi from `start`, stream-copied.
    static func vtestClip(_ url: URL, start: Double, seconds: Double) throws {
        try ffmpeg(["-ss", "\(start)", "-i", try TestData.file("opencv/vtest.avi").path, "-t", "\(seconds)", "-c", "copy", url.path])
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test("A labelled folder of real clips with one truncated file: that file fails clearly, the rest trains through run")
    func truncatedFileIsSkipped() throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("videos")
        for (index, phase) in [0.0, 0.5, 1.0, 1.5].enumerated() {
            try Self.messiClip(data.appendingPathComponent("player/clip\(index).mp4"), phase: phase)
        }
        try FileManager.default.createDirectory(at: data.appendingPathComponent("street"), withIntermediateDirectories: true)
        for index in 0..<4 {
            try Self.vtestClip(data.appendingPathComponent("street/clip\(index).avi"), start: Double(index) * 2, seconds: 2)
        }
        let whole = try Data(contentsOf: data.appendingPathComponent("player/clip0.mp4"))
        try whole.prefix(whole.count / 2).write(to: data.appendingPathComponent("player/truncated.mp4"))
        try Self.write(
            """
            { name: "videos", dataset: { sources: [{ format: "video", path: "videos" }], validation: { fraction: 0.25 } },
              features: { frameRate: 10, cache: "cache" }, windows: { duration: 1 },
              model: { channels: [8, 8], kernelSizes: [3, 3] }, training: { epochs: 3, batchSize: 4 } }
            """, to: directory.file("videos.json5"))
        let result = try CommandLineTool.run(["run", "videos.json5", "--output", "report", "--workers", "2"], in: directory.url)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("truncated.mp4"), "the failure is logged")
        #expect(result.errorOutput.contains("skipped"))
        let trials = try FileManager.default.contentsOfDirectory(atPath: directory.file("report/trials").path)
        let trial = try #require(trials.first)
        let provenance = try String(contentsOf: directory.file("report/trials/\(trial)/provenance.json"), encoding: .utf8)
        #expect(provenance.contains("truncated.mp4"), "provenance lists the skipped file")
        #expect(provenance.contains("clip3.avi"))

        // predict extracts several videos at once (into a new cache), the truncated one failing alone.
        let predicted = try CommandLineTool.run(
            ["predict", "report", "videos/player/clip0.mp4", "videos/street/clip1.avi", "videos/player/truncated.mp4", "--workers", "2",
             "--cache", "predict-cache", "--output", "predicted"],
            in: directory.url)
        #expect(predicted.status == 1, "\(predicted.errorOutput)")
        #expect(predicted.errorOutput.contains("extracting the poses of 3 videos, 2 at a time"), "\(predicted.errorOutput)")
        let failures = predicted.errorOutput.components(separatedBy: "\n").filter { $0.hasPrefix("failed: ") }
        #expect(failures.count == 1 && failures[0].contains("videos/player/truncated.mp4"), "\(predicted.errorOutput)")
        for stream in ["clip0.mp4", "clip1.avi"] {
            #expect(FileManager.default.fileExists(atPath: directory.file("predicted/\(stream)/predictions.csv").path), "\(stream)")
        }

        // With dataset.onError "fail" the same tree fails before training, naming the file.
        try Self.write(
            try String(contentsOf: directory.file("videos.json5"), encoding: .utf8)
                .replacingOccurrences(of: "validation: {", with: "onError: \"fail\", validation: {"),
            to: directory.file("strict.json5"))
        let strict = try CommandLineTool.run(["run", "strict.json5", "--output", "strict"], in: directory.url)
        #expect(strict.status == 1)
        #expect(strict.errorOutput.contains("truncated.mp4"))
    }

    @Test("check on vtest.avi's first 10 s: 100 frames at 10 fps, frames without a person flagged")
    func checkFlagsFramesWithoutAPerson() throws {
        let directory = try TemporaryDirectory()
        try Self.vtestClip(directory.file("data/street/vtest.avi"), start: 0, seconds: 10)
        try Self.messiClip(directory.file("data/player/clip.mp4"), phase: 0)
        try Self.ffmpeg(["-i", try TestData.file("opencv/messi5.jpg").path, directory.file("data/player/still.png").path])
        try Self.write(
            """
            { name: "check", dataset: { sources: [{ format: "video", path: "data" }] }, features: { frameRate: 10, cache: "cache" } }
            """, to: directory.file("check.json5"))
        let result = try CommandLineTool.run(["check", "check.json5", "--output", "out"], in: directory.url)
        #expect(result.status == 0, "\(result.errorOutput)")
        let markdown = try String(contentsOf: directory.file("out/check.md"), encoding: .utf8)
        #expect(markdown.contains("frames without a person"))
        #expect(markdown.contains("mixed frame rates"))
        let csv = try String(contentsOf: directory.file("out/videos.csv"), encoding: .utf8)
        let row = try #require(csv.split(separator: "\n").first { $0.contains("vtest.avi") })
        let fields = row.split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields[2] == "10.0" && fields[7] == "100", "10 fps, 100 frames: \(row)")
        // A still picture has no frame rate (FFmpeg's nominal 25 fps for pictures is not the file's), in the CSV, the table and the flag.
        let still = try #require(csv.split(separator: "\n").first { $0.contains("still.png") })
        #expect(still.split(separator: ",", omittingEmptySubsequences: false)[2] == "", "\(still)")
        #expect(markdown.contains("| player/still.png | player | still |"), "\(markdown)")
        let flag = try #require(markdown.split(separator: "\n").first { $0.contains("mixed frame rates") })
        #expect(!flag.contains(" 25,") && !flag.contains(" 25 fps"), "\(flag)")
        #expect(try String(contentsOf: directory.file("out/labels.csv"), encoding: .utf8).contains("street,1,"))
    }

    @Test("check with a video that cannot be decoded: the report is written, the video named, exit status 1 as extract's")
    func checkWithABrokenVideoExitsWithStatus1() throws {
        let directory = try TemporaryDirectory()
        try Self.messiClip(directory.file("data/player/clip.mp4"), phase: 0)
        try Data("not a video".utf8).write(to: directory.file("data/player/broken.mp4"))
        // An MP4 with its index first, cut short: it opens (FFmpeg logs while reading the stream
        // information) and then fails on its first frame.
        try Self.ffmpeg(["-i", directory.file("data/player/clip.mp4").path, "-c", "copy", "-movflags", "+faststart",
                         directory.file("fast.mp4").path])
        try Data(contentsOf: directory.file("fast.mp4")).prefix(25_000).write(to: directory.file("data/player/cut.mp4"))
        try Self.write(
            """
            { name: "check", dataset: { sources: [{ format: "video", path: "data" }] }, features: { frameRate: 10, cache: "cache" } }
            """, to: directory.file("check.json5"))
        let result = try CommandLineTool.run(["check", "check.json5", "--output", "out"], in: directory.url)
        #expect(result.status == 1, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("failed: ") && result.errorOutput.contains("broken.mp4"), "\(result.errorOutput)")
        // FFmpeg's explanation comes once, inside ActionLab's message, not also as FFmpeg's own `[mov,mp4,… @ 0x…]` lines.
        #expect(result.errorOutput.contains("(FFmpeg log: "), "\(result.errorOutput)")
        #expect(!result.errorOutput.contains(" @ 0x"), "\(result.errorOutput)")
        let cut = try #require(result.errorOutput.split(separator: "\n").first { $0.hasPrefix("failed: ") && $0.contains("cut.mp4") },
                               "\(result.errorOutput)")
        #expect(cut.contains("(FFmpeg log: "), "what FFmpeg logged while opening it goes with the error: \(cut)")
        #expect(FileManager.default.fileExists(atPath: directory.file("out/check.md").path))
        #expect(try String(contentsOf: directory.file("out/videos.csv"), encoding: .utf8).contains("clip.mp4"))
    }

    @Test("check flags legs out of view, a label with no person in any sample, and labels with a single recording")
    func checkFlagsMissingLegsSilentLabelsAndSingleRecordings() throws {
        let directory = try TemporaryDirectory()
        // messi5.jpg cut above the knees: head, arms and torso in view, legs never; the first
        // 0.5 s painted over, so that only about half of the frames have a person.
        try Self.ffmpeg([
            "-loop", "1", "-framerate", "10", "-i", try TestData.file("opencv/messi5.jpg").path, "-t", "1",
            "-vf", "crop=548:226:0:0,drawbox=x=0:y=0:w=iw:h=ih:color=gray:t=fill:enable='lt(t,0.5)'",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", directory.file("data/player/upper.mp4").path,
        ])
        try Self.ffmpeg([
            "-f", "lavfi", "-i", "color=c=gray:size=160x120:rate=10", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            directory.file("data/empty/gray.mp4").path,
        ])
        try Self.write(
            """
            { name: "check", dataset: { sources: [{ format: "video", path: "data" }] }, features: { frameRate: 10, cache: "cache" },
              windows: { duration: 0.5 } }
            """, to: directory.file("check.json5"))
        let result = try CommandLineTool.run(["check", "check.json5", "--output", "out"], in: directory.url)
        #expect(result.status == 0, "\(result.errorOutput)")
        let markdown = try String(contentsOf: directory.file("out/check.md"), encoding: .utf8)
        let flags = markdown.components(separatedBy: "## Labels").first ?? ""
        #expect(flags.contains("legs out of view in 1 video"), "\(flags)")
        #expect(flags.contains("player/upper.mp4"), "\(flags)")
        #expect(!flags.contains("head out of view") && !flags.contains("torso out of view"), "\(flags)")
        // videos.csv gives the same means as the flag: over the frames with a person, not over all.
        let csv = try String(contentsOf: directory.file("out/videos.csv"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(csv.first)
        let upper = try #require(csv.first { $0.first?.hasSuffix("upper.mp4") == true })
        func value(_ column: String) throws -> Double {
            let index = try #require(header.firstIndex(of: column))
            return try #require(Double(upper[index]))
        }
        #expect(try value("person_share") > 0.3 && value("person_share") < 0.8, "\(upper)")
        #expect(try value("head_confidence") > 0.8, "a head seen in every frame with a person: \(upper)")
        let legsFlag = try #require(flags.split(separator: "\n").first { $0.contains("legs out of view") })
        let flagged = try #require(legsFlag.split(separator: " ").last.map(String.init))
        #expect(String(format: "%.2f", try value("legs_confidence")) == flagged, "\(flagged) in the flag, \(upper) in videos.csv")
        #expect(flags.contains("no person in any sample of 'empty'"), "\(flags)")
        #expect(flags.contains("one recording only for 'empty', 'player'"), "\(flags)")
        #expect(flags.contains("training runs without a validation set"), "\(flags)")
    }

    @Test("Montage on a video whose first frame is shown at 1.0 s: durations, clamping and the log count from that frame")
    func montageOnAVideoStartingLate() throws {
        let directory = try TemporaryDirectory()
        // 3 s of testsrc shown from 1.0 s to 3.96 s; the Matroska container states 4.0 s (and the stream no duration).
        try Self.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=duration=3:size=160x120:rate=25", "-output_ts_offset", "1", "-c:v", "libx264",
            "-pix_fmt", "yuv420p", directory.file("data/late.mkv").path,
        ])
        try Self.write(
            """
            file_name,label,start_time,end_time
            late.mkv,early,0,1.5
            late.mkv,tail,2,
            late.mkv,over,1.5,3.5
            """, to: directory.file("data/annotations.csv"))
        try Self.write(
            """
            { name: "late", dataset: { sources: [{ format: "montage", path: "data/annotations.csv" }] },
              features: { frameRate: 10, cache: "cache" }, windows: { duration: 1.5 } }
            """, to: directory.file("late.json5"))
        let check = try CommandLineTool.run(["check", "late.json5", "--output", "out"], in: directory.url)
        #expect(check.status == 0, "\(check.errorOutput)")
        let markdown = try String(contentsOf: directory.file("out/check.md"), encoding: .utf8)
        // The sample from 2 s to the end lasts 1 s (not 2 s), shorter than the 1.5-s action duration.
        #expect(markdown.contains("annotations.csv line 3 (1 s)"), "\(markdown)")
        let csv = try String(contentsOf: directory.file("out/videos.csv"), encoding: .utf8)
        let row = try #require(csv.split(separator: "\n").dropFirst().first)
        #expect(row.split(separator: ",")[3] == "3.0", "duration from the first displayed frame: \(row)")
        let labels = try String(contentsOf: directory.file("out/labels.csv"), encoding: .utf8)
        #expect(labels.contains("tail,1,1.0"), "\(labels)")

        let validate = try CommandLineTool.run(["validate", "late.json5", "--data"], in: directory.url)
        #expect(validate.status == 0, "\(validate.errorOutput)")
        #expect(validate.errorOutput.contains("end_time 3.5 s is past the end of late.mkv (3.000 s); clamped"), "\(validate.errorOutput)")
        #expect(validate.errorOutput.contains("3 sequences from 1 file (1 from the cache, 0 imported)"), "\(validate.errorOutput)")
    }

    @Test("extract prints no MediaPipe chatter on standard error, and MediaPipe's real errors still show")
    func mediaPipeChatterIsFiltered() throws {
        let directory = try TemporaryDirectory()
        try Self.messiClip(directory.file("data/player/a.mp4"), phase: 0)
        try Self.messiClip(directory.file("data/player/b.mp4"), phase: 1)
        try Self.write(
            """
            { name: "quiet", dataset: { sources: [{ format: "video", path: "data" }] }, features: { frameRate: 5, cache: "cache" } }
            """, to: directory.file("quiet.json5"))
        let result = try CommandLineTool.run(["extract", "quiet.json5"], in: directory.url)
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.errorOutput.split(separator: "\n")
        #expect(!result.errorOutput.contains("Sparsity") && !result.errorOutput.contains("INFO: "), "\(result.errorOutput)")
        // ActionLab's own progress lines only (it printed about 45 of MediaPipe's per video before).
        #expect(lines.count <= 6 && lines.allSatisfy { $0.hasPrefix("[") }, "\(lines.count) lines: \(result.errorOutput)")

        // A video whose first second shows nobody: MediaPipe's once-per-process warning comes on the first frame with a
        // person, after the landmarker's first frame, and is filtered too.
        try Self.messiClip(directory.file("late/player/a.mp4"), phase: 0)
        try Self.ffmpeg([
            "-i", directory.file("late/player/a.mp4").path, "-vf", "drawbox=x=0:y=0:w=iw:h=ih:color=black:t=fill:enable='lt(t,1)'",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", directory.file("late/player/late.mp4").path,
        ])
        try FileManager.default.removeItem(at: directory.file("late/player/a.mp4"))
        try Self.write(
            """
            { name: "late", dataset: { sources: [{ format: "video", path: "late" }] }, features: { frameRate: 5, cache: "cache" } }
            """, to: directory.file("late.json5"))
        let late = try CommandLineTool.run(["extract", "late.json5"], in: directory.url)
        #expect(late.status == 0, "\(late.errorOutput)")
        #expect(!late.errorOutput.contains("NORM_RECT") && !late.errorOutput.contains("W0000"), "\(late.errorOutput)")
        #expect(late.errorOutput.split(separator: "\n").allSatisfy { $0.hasPrefix("[") }, "\(late.errorOutput)")

        // A model bundle holding two files that are not TensorFlow Lite models: MediaPipe's own error line stays.
        let model = directory.file("bad.task")
        let zip = try PythonOracle.run(
            "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
                + "    z.writestr('pose_detector.tflite', b'x' * 100)\n    z.writestr('pose_landmarks_detector.tflite', b'y' * 100)\n",
            arguments: [model.path])
        try #require(zip.status == 0, "\(zip.errorOutput)")
        let broken = try CommandLineTool.run(
            ["extract", "quiet.json5"], in: directory.url, environment: ["ACTIONLAB_POSE_MODEL": model.path])
        #expect(broken.status == 1)
        #expect(broken.errorOutput.contains("\nERROR: The model is not a valid Flatbuffer buffer\n"), "\(broken.errorOutput)")
        // Each video's line names its file once (the error's own leading path is not repeated).
        let failed = broken.errorOutput.split(separator: "\n").filter { $0.contains("FAILED [") }
        #expect(failed.count == 2 && failed.allSatisfy { $0.components(separatedBy: "/data/player/").count == 2 }
                && failed.allSatisfy { $0.contains(".mp4: pose estimation failed") }, "\(broken.errorOutput)")
        #expect(!broken.errorOutput.contains("INFO: "), "\(broken.errorOutput)")
    }

    @Test("kill -9 during extract, then rerun: it finishes, no corrupt entry is read, only unfinished videos are redone")
    func killAndRerun() throws {
        let directory = try TemporaryDirectory()
        let count = 6
        for index in 0..<count {
            try Self.vtestClip(directory.file("data/street/clip\(index).avi"), start: Double(index) * 3, seconds: 3)
        }
        try Self.write(
            """
            { name: "kill", dataset: { sources: [{ format: "video", path: "data" }] }, features: { frameRate: 10, cache: "cache" } }
            """, to: directory.file("kill.json5"))
        let process = Process()
        process.executableURL = try CommandLineTool.executable
        process.arguments = ["extract", "kill.json5"]
        process.currentDirectoryURL = directory.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        func entries() -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: directory.file("cache").path)
            return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".h5") }
        }
        let deadline = Date().addingTimeInterval(120)
        while entries().count < 2 && process.isRunning && Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let finished = entries().count
        try #require(finished >= 1 && finished < count, "killed after \(finished) of \(count) videos")

        let rerun = try CommandLineTool.run(["extract", "kill.json5"], in: directory.url)
        #expect(rerun.status == 0, "\(rerun.errorOutput)")
        #expect(rerun.output.contains("cache hits: \(finished), new extractions: \(count - finished) "), "\(rerun.output)")
        #expect(!rerun.errorOutput.contains("set aside"), "no entry was unreadable")
        let again = try CommandLineTool.run(["extract", "kill.json5"], in: directory.url)
        #expect(again.output.contains("cache hits: \(count), new extractions: 0 "), "\(again.output)")
        // Every entry reads back whole.
        let cache = try FeatureCache(directory: directory.file("cache"))
        for path in entries() {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            #expect(try cache.lookup(key: CacheKey(hexDigest: name)) != nil)
        }
    }
}
