import AtomicFiles
import Export
import Foundation
import Reports

/// The output folder of `actionlab predict`: one folder per stream, the run's `summary.md`, and
/// `predict-run.json`, the list of the stream folders the run wrote.
///
/// A folder holds one prediction run. A new run into it removes the stream folders that the
/// earlier run's `predict-run.json` lists and that the new run did not write again, once the new
/// run's are written; a listed folder that now holds files of the user's own, or is a symbolic
/// link, is kept, and nothing the list does not name is touched. A sweep, trial or export folder
/// is not a prediction folder: predicting into one would overwrite its `summary.md` or mix
/// streams with a model.
public enum PredictionFolder {
    /// The run's record: `{"format": "actionlab-predict", "format_version": 1, "streams": [...]}`.
    public static let recordName = ActionLabFolderKind.predictionsRecordName

    private struct Record: Codable {
        var format = "actionlab-predict"
        var formatVersion = 1
        var streams: [String]

        enum CodingKeys: String, CodingKey {
            case format, formatVersion = "format_version", streams
        }
    }

    /// The folder name of a stream called `name`: the name itself, or `name-2`, `name-3`, … when
    /// `taken` holds it (an earlier stream of the run) or it is a run-level file's name
    /// (`summary.md`, `evaluation.csv`, ``recordName``), which an input such as `evaluation.csv`
    /// or an OpenPose folder `summary.md/` would otherwise collide with. A name longer than
    /// ``maximumNameBytes`` keeps its first 160 and last 70 bytes around `…` (the tail holds the
    /// series number, `#3`): a file system refuses names over 255 bytes (`NAME_MAX`), which made
    /// every stream of an input with a long file name fail.
    public static func streamFolderName(for name: String, taken: Set<String>) -> String {
        let reserved = Set(RunPredictionSummary.fileNames + [recordName])
        let name = shortened(name)
        var candidate = name
        var suffix = 2
        while taken.contains(candidate) || reserved.contains(candidate) {
            candidate = "\(name)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// The longest stream folder name, in UTF-8 bytes: `NAME_MAX` (255) less room for a `-N` suffix.
    public static let maximumNameBytes = 240

    /// `name`, or its head and tail around `…` when it is longer than ``maximumNameBytes``.
    private static func shortened(_ name: String) -> String {
        guard name.utf8.count > maximumNameBytes else { return name }
        var head = ""
        for character in name {
            guard head.utf8.count + character.utf8.count <= 160 else { break }
            head.append(character)
        }
        var tail = ""
        for character in name.reversed() {
            guard tail.utf8.count + character.utf8.count <= 70 else { break }
            tail.insert(character, at: tail.startIndex)
        }
        return head + "…" + tail
    }

    /// Refuses a folder that is a sweep, trial or export folder (an earlier predictions folder is
    /// written again), or lies up to three levels inside a sweep, trial, stream-ensemble export
    /// or predictions folder.
    ///
    /// - Throws: `ReportError.writeFailed` naming the folder and what it is.
    public static func checkUsable(_ folder: URL) throws {
        let folder = folder.standardizedFileURL
        if let (kind, marker) = ActionLabFolderKind.kinds(of: folder).first(where: { $0.kind != .predictions }) {
            throw ReportError.writeFailed(
                path: folder.path, reason: "it is \(kind) (it holds \(marker)); predictions go into a folder of their own (--output DIR)")
        }
        // Nor a folder up to three levels inside one that has folders of its own (a sweep's
        // trials/, a trial's scores/, an ensemble's members/<stream>/), which it would clutter. Only
        // the files no other tool writes count here: a `config.json` above a predictions folder
        // is no sign of an export.
        var ancestor = folder.deletingLastPathComponent()
        for _ in 0..<3 where ancestor.path != "/" && !ancestor.path.isEmpty {
            let found = ActionLabFolderKind.allCases.lazy.compactMap { kind -> (kind: ActionLabFolderKind, marker: String)? in
                guard let marker = kind.folderMarker,
                      FileManager.default.fileExists(atPath: ancestor.appendingPathComponent(marker).path) else { return nil }
                return (kind, marker)
            }.first
            if let (kind, marker) = found {
                throw ReportError.writeFailed(
                    path: folder.path,
                    reason: "it is inside \(kind), \(ancestor.path) (it holds \(marker)); predictions go into a folder of their own (--output DIR)")
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
    }

    /// The stream folders an earlier run recorded in `folder`, in its order; empty without a
    /// readable record of format version 1 (a folder new to predictions, one written before
    /// records existed, or by a later ActionLab whose record this one cannot vouch for).
    /// Names that are not a single plain path component are dropped.
    public static func recordedStreams(in folder: URL) -> [String] {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(recordName)),
              let record = try? JSONDecoder().decode(Record.self, from: data), record.format == "actionlab-predict", record.formatVersion == 1 else { return [] }
        return record.streams.filter { !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("/") && !$0.contains("\0") }
    }

    /// Writes the record of this run's stream folders (atomically).
    ///
    /// - Throws: `ReportError.writeFailed` naming the file.
    public static func writeRecord(streams: [String], in folder: URL) throws {
        let url = folder.appendingPathComponent(recordName)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(try encoder.encode(Record(streams: streams)), to: url)
        } catch {
            throw ReportError.writeFailed(path: url.path, reason: ReportError.reason(error))
        }
    }

    /// Removes the earlier run's stream folders `earlier` that this run did not write (`written`).
    ///
    /// - Returns: The names removed, and those kept because they are no longer plain stream
    ///   folders (a symbolic link, or files of the user's own inside).
    public static func removeEarlierStreams(_ earlier: [String], keeping written: Set<String>, in folder: URL) -> (removed: [String], kept: [String]) {
        var removed: [String] = [], kept: [String] = []
        for name in earlier where !written.contains(name) {
            let url = folder.appendingPathComponent(name, isDirectory: true)
            var status = stat()
            guard lstat(url.path, &status) == 0 else { continue }  // already gone
            let isPlainFolder = (status.st_mode & S_IFMT) == S_IFDIR
            let files = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            let onlyReports = files.allSatisfy {
                PredictionReport.fileNames.contains($0) || AtomicFile.writerProcess(ofTemporaryFileNamed: $0) != nil
            }
            if isPlainFolder && onlyReports, (try? FileManager.default.removeItem(at: url)) != nil {
                removed.append(name)
            } else {
                kept.append(name)
            }
        }
        return (removed, kept)
    }
}
