import ActionLabTestSupport
import Foundation
import Testing

/// `actionlab predict` through the real executable, on a small model trained on the real
/// BasicMotions smartwatch recordings: every output file of every stream, JSON lines, and bad
/// input that fails alone with a message naming it.
@Suite struct PredictCommandTests {
    @Test func writesEveryOutputAndFailsBadInputsAlone() throws {
        let scratch = try TemporaryDirectory(prefix: "actionlab-predict")
        _ = try ExportCommandTests.trainedReport(in: scratch.url)
        try FileManager.default.createDirectory(at: scratch.file("clips"), withIntermediateDirectories: true)
        try Data("not a video".utf8).write(to: scratch.file("clips/broken.mp4"))
        try Data("MATLAB 5.0 MAT-file".utf8).write(to: scratch.file("clips/recording.mat"))
        try FileManager.default.createDirectory(at: scratch.file("openpose"), withIntermediateDirectories: true)
        try Data(#"{"version": 1.3, "people": []}"#.utf8).write(to: scratch.file("openpose/clip_000000000000_keypoints.json"))
        let result = try CommandLineTool.run(
            ["predict", "reports/run", "data/train.ts", "missing.csv", "clips/broken.mp4", "clips/recording.mat", "openpose",
             "--output", "predicted", "--stride", "5", "--json"],
            in: scratch.url)
        // The sensor recordings are predicted; the missing file, the video (a sensor model
        // cannot read poses from video) and the MAT-file (the model's sources name no MAT
        // variable) fail alone, named, and the status says so.
        #expect(result.status == 1, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("missing.csv: no such file or folder"))
        #expect(result.errorOutput.contains("broken.mp4: its poses are in the 'vision18' layout, but the model"))
        #expect(result.errorOutput.contains(
            "recording.mat: a MAT-file is read with the variable and axes of the model's own MAT sources, and this model was trained on none (its sources: uea)"),
            "\(result.errorOutput)")
        // Nor an OpenPose folder: without the image size of the model's own OpenPose sources, every keypoint was clamped
        // to a corner and the model still answered with confidence 0.99999.
        #expect(result.errorOutput.contains(
            "openpose: an OpenPose folder is read with the image size of the model's own OpenPose sources, and this model was trained on none"),
            "\(result.errorOutput)")
        // Each failure line names its input once.
        let failureLines = result.errorOutput.split(separator: "\n").map(String.init).filter { $0.hasPrefix("failed: ") }
        #expect(failureLines.count == 4, "\(result.errorOutput)")
        for name in ["missing.csv", "broken.mp4", "recording.mat"] {
            #expect(failureLines.filter { $0.contains(name) }.map { $0.components(separatedBy: name).count - 1 } == [1],
                    "\(name) should appear once, in one failure line: \(failureLines)")
        }
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.last == scratch.file("predicted").path)
        let objects = try lines.dropLast().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(!objects.isEmpty)
        for object in objects {
            let probabilities = try #require(object["probabilities"] as? [String: Double])
            #expect(probabilities.count == 4)
            #expect(abs(probabilities.values.reduce(0, +) - 1) < 1e-5)
            #expect(["ok", "lowConfidence", "noPerson"].contains(object["status"] as? String ?? ""))
        }
        // One folder per recording of the .ts file (40 rows), each with the five files.
        let streams = try FileManager.default.contentsOfDirectory(atPath: scratch.file("predicted").path).filter { $0.hasPrefix("train.ts") }
        #expect(streams.count == 40)
        // Numbered from 0, as training numbers the series (scores/<split>.csv, provenance.json).
        #expect(streams.contains("train.ts#0") && !streams.contains("train.ts#40"), "\(streams.sorted())")
        for stream in streams {
            let files = try FileManager.default.contentsOfDirectory(atPath: scratch.file("predicted/\(stream)").path).sorted()
            #expect(files == ["counts.csv", "predictions.csv", "segments.csv", "summary.md", "timeline.svg"])
        }
        // A folder's subfolders (Create ML's label folders) are not read, and predict says so.
        try FileManager.default.createDirectory(at: scratch.file("labelled/walking"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: scratch.file("data/train.ts"), to: scratch.file("labelled/walking/train.ts"))
        let nested = try CommandLineTool.run(["predict", "reports/run", "labelled", "--output", "nested"], in: scratch.url)
        #expect(nested.status == 1 && nested.errorOutput.contains("labelled: its subfolder walking/ is not read (an input folder is read "
            + "one level deep): give it as an input of its own") && nested.errorOutput.contains("the folder holds no input file"),
                "\(nested.errorOutput)")
        // An output folder under a file: the system's reason, not Foundation's error dump.
        let underFile = try CommandLineTool.run(["predict", "reports/run", "data/train.ts", "--output", "data/train.ts/sub"], in: scratch.url)
        #expect(underFile.status == 1 && underFile.errorOutput.contains("data/train.ts/sub: cannot write: cannot create the output folder: Not a directory")
                && !underFile.errorOutput.contains("NSCocoaErrorDomain"), "\(underFile.errorOutput)")
        let predictions = try String(contentsOf: scratch.file("predicted/train.ts#1/predictions.csv"), encoding: .utf8)
        #expect(predictions.hasPrefix("index,start_time,end_time,start_frame,label,confidence,status,"))
        // 100 frames at 10 fps, windows of 100 frames: one window, every 5 frames after it.
        #expect(predictions.split(separator: "\n").count == 2)
        let summary = try String(contentsOf: scratch.file("predicted/summary.md"), encoding: .utf8)
        #expect(summary.contains("failed inputs: 4"))
        #expect(summary.contains("missing.csv"))
    }

    @Test func aModelFolderWithAMissingOrDamagedFileIsAClearError() throws {
        let scratch = try TemporaryDirectory(prefix: "actionlab-predict")
        _ = try ExportCommandTests.trainedReport(in: scratch.url)
        let export = try CommandLineTool.run(["export", "reports/run", "--output", "model"], in: scratch.url)
        try #require(export.status == 0, "\(export.errorOutput)")
        let good = try CommandLineTool.run(["predict", "model", "data/train.ts", "--output", "out"], in: scratch.url)
        #expect(good.status == 0, "\(good.errorOutput)")
        // Predicting into the same folder again replaces the streams the earlier run recorded
        // (predict-run.json) and keeps everything else: the user's own files, a folder that looks
        // like a stream folder but is not in the record, a recorded one the user added a file to.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).filter { $0.hasPrefix("train.ts#") }.count == 40)
        let manager = FileManager.default
        try manager.createDirectory(at: scratch.file("out/mine"), withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: scratch.file("out/mine/notes.txt"))
        try manager.copyItem(at: scratch.file("out/train.ts#1"), to: scratch.file("out/backup"))
        try Data("mine".utf8).write(to: scratch.file("out/train.ts#2/notes.txt"))
        try manager.copyItem(at: scratch.file("data/train.ts"), to: scratch.file("data/again.ts"))
        let again = try CommandLineTool.run(["predict", "model", "data/again.ts", "--output", "out"], in: scratch.url)
        #expect(again.status == 0, "\(again.errorOutput)")
        #expect(again.errorOutput.contains("removed the earlier prediction's 39 other stream folders from "), "\(again.errorOutput)")
        #expect(again.errorOutput.contains("warning: kept train.ts#2, a stream folder of the earlier prediction"), "\(again.errorOutput)")
        let outputs = try manager.contentsOfDirectory(atPath: scratch.file("out").path)
        #expect(outputs.filter { $0.hasPrefix("train.ts") } == ["train.ts#2"] && outputs.filter { $0.hasPrefix("again.ts#") }.count == 40)
        #expect(try String(contentsOf: scratch.file("out/mine/notes.txt"), encoding: .utf8) == "notes")
        #expect(manager.fileExists(atPath: scratch.file("out/backup/predictions.csv").path))
        // A run in which every input fails replaces nothing: the earlier streams, summary and record stay.
        let summaryBefore = try Data(contentsOf: scratch.file("out/summary.md"))
        let typo = try CommandLineTool.run(["predict", "model", "data/agian.ts", "--output", "out"], in: scratch.url)
        #expect(typo.status == 1 && typo.errorOutput.contains("nothing written to ")
                && typo.errorOutput.contains("the earlier prediction's 40 stream folders and summary are kept"), "\(typo.errorOutput)")
        #expect(try manager.contentsOfDirectory(atPath: scratch.file("out").path).filter { $0.hasPrefix("again.ts#") }.count == 40)
        #expect(try Data(contentsOf: scratch.file("out/summary.md")) == summaryBefore)
        // A model's own folder is not a prediction folder.
        let intoModel = try CommandLineTool.run(["predict", "model", "data/again.ts", "--output", "model"], in: scratch.url)
        #expect(intoModel.status == 1 && intoModel.errorOutput.contains("it is a model export folder (it holds weights.h5); predictions go"),
                "\(intoModel.errorOutput)")

        // Weights of the sweep's other trial (the other seed) beside this config.json: refused, naming both trials.
        let trials = try manager.contentsOfDirectory(atPath: scratch.file("reports/run/trials").path).filter { !$0.hasPrefix(".") }
        let config = try String(contentsOf: scratch.file("model/config.json"), encoding: .utf8)
        let other = try #require(trials.first { !config.contains("\"\($0)\"") }, "\(trials)")
        try manager.moveItem(at: scratch.file("model/weights.h5"), to: scratch.file("weights.kept"))
        try manager.copyItem(at: scratch.file("reports/run/trials/\(other)/weights.h5"), to: scratch.file("model/weights.h5"))
        let mixed = try CommandLineTool.run(["predict", "model", "data/train.ts"], in: scratch.url)
        #expect(mixed.status == 1 && mixed.errorOutput.contains("model/weights.h5: ")
                && mixed.errorOutput.contains("it belongs to trial \(other) (seed "), "\(mixed.errorOutput)")
        try manager.removeItem(at: scratch.file("model/weights.h5"))
        try manager.moveItem(at: scratch.file("weights.kept"), to: scratch.file("model/weights.h5"))

        try FileManager.default.removeItem(at: scratch.file("model/config.json"))
        let missing = try CommandLineTool.run(["predict", "model", "data/train.ts"], in: scratch.url)
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("model/config.json: missing (the resolved configuration that rebuilds the model)"))

        try Data("garbage".utf8).write(to: scratch.file("model/config.json"))
        let damaged = try CommandLineTool.run(["predict", "model", "data/train.ts"], in: scratch.url)
        #expect(damaged.status == 1)
        #expect(damaged.errorOutput.contains("model/config.json: cannot read") && damaged.errorOutput.contains("line 1, column 1: expected a value"), "\(damaged.errorOutput)")

        // Without its weights the folder is not taken for an empty sweep folder.
        try FileManager.default.removeItem(at: scratch.file("model/weights.h5"))
        let noWeights = try CommandLineTool.run(["predict", "model", "data/train.ts"], in: scratch.url)
        #expect(noWeights.status == 1)
        #expect(noWeights.errorOutput.contains("model/weights.h5: missing (the trained weights, which a trial or export folder holds"),
                "\(noWeights.errorOutput)")
        #expect(!noWeights.errorOutput.contains("sweep"), "\(noWeights.errorOutput)")

        let noModel = try CommandLineTool.run(["predict", "nowhere", "data/train.ts"], in: scratch.url)
        #expect(noModel.status == 1 && noModel.errorOutput.contains("nowhere: no such folder"))
        let noInput = try CommandLineTool.run(["predict", "reports/run"], in: scratch.url)
        #expect(noInput.status == 2 && noInput.errorOutput.contains("missing INPUT"))
        // Option values out of range are usage errors (status 2), found before the model is read.
        let badThreshold = try CommandLineTool.run(["predict", "reports/run", "data/train.ts", "--threshold", "2"], in: scratch.url)
        #expect(badThreshold.status == 2 && badThreshold.errorOutput.contains("threshold 2.0 is not allowed: expected a probability in [0, 1]"))
        #expect(badThreshold.errorOutput.contains("actionlab predict --help"))
        let badShare = try CommandLineTool.run(["predict", "nowhere", "data/train.ts", "--min-pose", "1.5"], in: scratch.url)
        #expect(badShare.status == 2 && badShare.errorOutput.contains("minimum pose fraction 1.5 is not allowed"), "\(badShare.errorOutput)")
        let badRefractory = try CommandLineTool.run(["predict", "reports/run", "data/train.ts", "--refractory", "-1"], in: scratch.url)
        #expect(badRefractory.status == 2 && badRefractory.errorOutput.contains("refractory time = -1.0"), "\(badRefractory.errorOutput)")
        // Options that would be ignored are usage errors: a window duration for a model that
        // slides windows of its own size, an FFmpeg input format without a live stream.
        let duration = try CommandLineTool.run(["predict", "reports/run", "data/train.ts", "--window-duration", "2"], in: scratch.url)
        #expect(duration.status == 2, "\(duration.errorOutput)")
        #expect(duration.errorOutput.contains(
            "--window-duration 2.0 is not allowed: expected no value: it is for models trained with uniform sampling, and this model "
                + "was trained on sliding windows of 100 frames at 10.0 fps (10 s each)"), "\(duration.errorOutput)")
        let format = try CommandLineTool.run(["predict", "reports/run", "data/train.ts", "--input-format", "mpegts"], in: scratch.url)
        #expect(format.status == 2 && format.errorOutput.contains("--input-format names the FFmpeg input format of a --live stream"),
                "\(format.errorOutput)")
        // --live reads streams: a regular file is an INPUT (it was called corrupt), and --output,
        // which a live run does not write, is refused rather than ignored.
        let liveFile = try CommandLineTool.run(["predict", "reports/run", "--live", "data/train.ts"], in: scratch.url)
        #expect(liveFile.status == 2 && liveFile.errorOutput.contains("--live data/train.ts: a file, not a live stream; give it as an INPUT"),
                "\(liveFile.errorOutput)")
        let liveOutput = try CommandLineTool.run(["predict", "reports/run", "--live", "udp://127.0.0.1:9", "--output", "x"], in: scratch.url)
        #expect(liveOutput.status == 2 && liveOutput.errorOutput.contains("--output is for INPUT files"), "\(liveOutput.errorOutput)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x").path))
    }
}
