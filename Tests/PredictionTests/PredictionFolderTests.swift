import ActionLabTestSupport
import Foundation
import Prediction
import Testing

/// `predict --output`'s folder rules: the record of the run's stream folders, read back only when
/// this ActionLab wrote its format, and refusal of the folders of sweeps, trials and exports.
@Suite struct PredictionFolderTests {
    @Test func theRecordIsReadBackOnlyInItsOwnFormatVersion() throws {
        let scratch = try TemporaryDirectory(prefix: "prediction-folder")
        let folder = scratch.url
        try PredictionFolder.writeRecord(streams: ["a.ts#1", "walk.mp4"], in: folder)
        #expect(PredictionFolder.recordedStreams(in: folder) == ["a.ts#1", "walk.mp4"])
        let record = folder.appendingPathComponent(PredictionFolder.recordName)
        func write(_ text: String) throws { try Data(text.utf8).write(to: record) }
        // Names that are not one plain path component are never taken for stream folders.
        try write(#"{"format": "actionlab-predict", "format_version": 1, "streams": ["ok", "../up", "a/b", "..", ""]}"#)
        #expect(PredictionFolder.recordedStreams(in: folder) == ["ok"])
        // A later format, another tool's file or a damaged one: nothing is vouched for, so nothing would be removed.
        try write(#"{"format": "actionlab-predict", "format_version": 2, "streams": ["ok"]}"#)
        #expect(PredictionFolder.recordedStreams(in: folder).isEmpty)
        try write(#"{"format": "other", "format_version": 1, "streams": ["ok"]}"#)
        #expect(PredictionFolder.recordedStreams(in: folder).isEmpty)
        try write("{")
        #expect(PredictionFolder.recordedStreams(in: folder).isEmpty)
    }

    /// A stream never takes a run-level file's name (an input `evaluation.csv`, an OpenPose folder
    /// `summary.md/`): before, the run failed at its end, renaming its summary onto the stream folder.
    @Test func streamFolderNamesAvoidRepeatsAndRunLevelFiles() {
        #expect(PredictionFolder.streamFolderName(for: "walk.mp4", taken: []) == "walk.mp4")
        #expect(PredictionFolder.streamFolderName(for: "walk.mp4", taken: ["walk.mp4", "walk.mp4-2"]) == "walk.mp4-3")
        // A name over the file system's 255 bytes keeps its head and its series number.
        let long = String(repeating: "é", count: 150) + ".ts#12"
        let short = PredictionFolder.streamFolderName(for: long, taken: [])
        #expect(short.utf8.count <= PredictionFolder.maximumNameBytes && short.hasPrefix("éé") && short.hasSuffix("é.ts#12") && short.contains("…"),
                "\(short)")
        #expect(PredictionFolder.streamFolderName(for: long, taken: [short]) == short + "-2")
        #expect(PredictionFolder.streamFolderName(for: String(repeating: "a", count: 240), taken: []).utf8.count == 240)
        #expect(PredictionFolder.streamFolderName(for: "evaluation.csv", taken: []) == "evaluation.csv-2")
        #expect(PredictionFolder.streamFolderName(for: "summary.md", taken: ["summary.md-2"]) == "summary.md-3")
        #expect(PredictionFolder.streamFolderName(for: PredictionFolder.recordName, taken: []) == "\(PredictionFolder.recordName)-2")
    }

    @Test func folderOfASweepTrialOrExportIsRefused() throws {
        let scratch = try TemporaryDirectory(prefix: "prediction-folder")
        try PredictionFolder.checkUsable(scratch.url)  // an empty folder is fine
        try PredictionFolder.checkUsable(scratch.url.appendingPathComponent("new"))  // so is a new one
        for (file, kind) in [
            ("sweep.json", "a sweep folder of actionlab run"), ("complete.json", "a trial folder of actionlab run"),
            ("weights.h5", "a model export folder"), ("ensemble.json", "a stream-ensemble export folder"),
        ] {
            let folder = scratch.url.appendingPathComponent(file + ".d")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data().write(to: folder.appendingPathComponent(file))
            let error = #expect(throws: (any Error).self) { try PredictionFolder.checkUsable(folder) }
            #expect("\(error.map { "\($0)" } ?? "")".contains("it is \(kind) (it holds \(file)); predictions go into a folder of their own"),
                    "\(String(describing: error))")
            // Nor a folder inside one, new or existing (a sweep's trials/, an ensemble's members/); a model export has no
            // folders, and its config.json alone (a common name) says nothing about the folders above a predictions folder.
            guard file != "weights.h5" else {
                try PredictionFolder.checkUsable(folder.appendingPathComponent("predictions"))
                continue
            }
            for inside in ["trials", "members/joint/new"] {
                let nested = folder.appendingPathComponent(inside)
                let error = #expect(throws: (any Error).self) { try PredictionFolder.checkUsable(nested) }
                #expect("\(error.map { "\($0)" } ?? "")".contains("it is inside \(kind), \(folder.path) (it holds \(file))"),
                        "\(String(describing: error))")
            }
        }
    }
}
