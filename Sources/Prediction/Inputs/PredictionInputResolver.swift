import Dataset
import Extraction
import Foundation
import Manifest

/// Turns the paths given to `actionlab predict` into inputs, choosing each file's format as a
/// manifest source would name it.
///
/// The rules, by what the path is:
/// - a video or picture (`MediaFiles`): `video`, poses by MediaPipe through the feature cache;
/// - `.mat`: `mat`, with the variable and axes of the model's own MAT sources;
/// - `.ts`: `uea`; `.csv`: montage annotations when its header names `file_name`, else keypoint CSV;
/// - `.json`: montage annotations when it is an array of objects with `file_name`, else Kinetics skeleton JSON;
/// - a folder of `.json` files only, some named `*_keypoints.json`: one OpenPose recording; any
///   other folder: each file in it (sorted by name) by the rules above; its subfolders are not
///   read, and ``note`` names them.
/// Montage annotations give one input per file they name, with that file's annotations as ground truth.
public struct PredictionInputResolver {
    /// The model's resolved configuration: its frame rate and the settings of its MAT sources.
    public var configuration: ExperimentConfiguration

    /// Receives what the caller should print: the subfolders of an input folder, which are not read.
    public var note: (String) -> Void

    public init(configuration: ExperimentConfiguration, note: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.note = note
    }

    /// Inputs for `paths`, in order.
    ///
    /// - Throws: ``DatasetSourceError`` naming the path that does not exist, whose format is
    ///   unknown, or whose annotations are malformed.
    public func inputs(for paths: [URL]) throws -> [PredictionInput] {
        try paths.flatMap { try inputs(for: $0, expandingFolders: true) }
    }

    private func inputs(for url: URL, expandingFolders: Bool) throws -> [PredictionInput] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw DatasetSourceError(file: url.path, message: "no such file or folder")
        }
        if isDirectory.boolValue {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            // OpenPose writes one `<name>_keypoints.json` per frame; a folder of other JSON files
            // (Kinetics-skeleton clips) is expanded into its files below.
            if !names.isEmpty, names.allSatisfy({ $0.lowercased().hasSuffix(".json") }),
               names.contains(where: { $0.lowercased().hasSuffix("_keypoints.json") }) {
                return [PredictionInput(file: url, source: try source(.openpose, url), origin: url.path)]
            }
            guard expandingFolders else { throw DatasetSourceError(file: url.path, message: "a folder inside an input folder is not read") }
            // A folder's files that are inputs (others, such as a README, are not read); when it
            // holds montage annotations, those alone, with the files they name.
            let files = names.map { url.appendingPathComponent($0) }.filter { !isFolder($0) }
            let subfolders = names.filter { isFolder(url.appendingPathComponent($0)) }
            if !subfolders.isEmpty {
                // A Create ML labelled-directories folder, or a folder of OpenPose clips: nothing in them is read.
                note("\(url.path): its subfolder\(subfolders.count == 1 ? "" : "s") \(subfolders.map { "\($0)/" }.joined(separator: ", ")) "
                    + "\(subfolders.count == 1 ? "is" : "are") not read (an input folder is read one level deep): give "
                    + "\(subfolders.count == 1 ? "it" : "each") as an input of its own")
            }
            let annotationFiles = files.filter(isAnnotationFile)
            let readable = try files.filter { try fileFormat($0) != nil }
            let found = try (annotationFiles.isEmpty ? readable : annotationFiles).flatMap { try inputs(for: $0, expandingFolders: false) }
            guard !found.isEmpty else { throw DatasetSourceError(file: url.path, message: "the folder holds no input file") }
            return found
        }
        if let annotations = try annotationSamples(url) {
            var byFile: [(file: URL, annotations: [PredictionInput.Annotation], origin: String)] = []
            for sample in annotations {
                let annotation = PredictionInput.Annotation(label: sample.label ?? "", start: sample.start ?? 0, end: sample.end)
                if let index = byFile.firstIndex(where: { $0.file == sample.file }) {
                    byFile[index].annotations.append(annotation)
                } else {
                    byFile.append((sample.file, [annotation], "\(url.path)\(sample.origin.map { " (\($0))" } ?? "")"))
                }
            }
            return try byFile.map { entry in
                guard let format = try fileFormat(entry.file) else {
                    throw DatasetSourceError(file: url.path, message: "\(entry.file.path): not a video, picture or keypoint file")
                }
                return PredictionInput(
                    file: entry.file, source: try source(format, entry.file), annotations: entry.annotations.sorted { $0.start < $1.start },
                    origin: entry.origin)
            }
        }
        guard let format = try fileFormat(url) else {
            throw DatasetSourceError(
                file: url.path,
                message: "not an input predict reads: expected a video or picture, a keypoint file (.csv, .json, .mat, .ts), "
                    + "an OpenPose folder or montage annotations")
        }
        return [PredictionInput(file: url, source: try source(format, url), origin: url.path)]
    }

    private func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The format of a keypoint, sensor or video file by its extension, or nil.
    private func fileFormat(_ url: URL) throws -> DataSource.Format? {
        if MediaFiles.isMedia(url) { return .video }
        switch url.pathExtension.lowercased() {
        case "mat": return .mat
        case "ts": return Self.isMPEGTransportStream(url) ? .video : .uea
        case "csv": return .csv
        case "json": return .kinetics
        default: return isFolder(url) ? .openpose : nil
        }
    }

    /// The samples of `url` if it is a montage annotation file, else nil.
    private func annotationSamples(_ url: URL) throws -> [DatasetSample]? {
        isAnnotationFile(url) ? try MontageAnnotations.samples(in: url) : nil
    }

    /// Whether `url` is montage annotations: a `.csv` whose header names `file_name`, or a `.json`
    /// array of objects with `file_name` (judged on its first 4 KiB).
    private func isAnnotationFile(_ url: URL) -> Bool {
        let pathExtension = url.pathExtension.lowercased()
        guard pathExtension == "csv" || pathExtension == "json" else { return false }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        if pathExtension == "csv" {
            let header = head.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return header.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "") == "file_name"
            }
        }
        return head.drop { $0.isWhitespace }.first == "[" && head.contains("\"file_name\"")
    }

    /// The source for one file of `format`: the model's frame rate, and for MAT-files the model's
    /// own MAT source's variable and axes (the file is read as training read its files).
    /// - Throws: ``DatasetSourceError`` for a MAT-file when the model was trained on no MAT source
    ///   (nothing says which variable holds the keypoints, or in which axis order), or an OpenPose
    ///   folder when it was trained on no OpenPose source (nothing gives the image size).
    private func source(_ format: DataSource.Format, _ url: URL) throws -> DataSource {
        let dataset = configuration.dataset
        let modelSources = dataset.sources + dataset.validation.sources + (dataset.test?.sources ?? [])
        if let same = modelSources.first(where: { $0.format == format }) {
            return DataSource(
                format: format, path: url, frameRate: same.frameRate, imageSize: same.imageSize, variable: same.variable, axes: same.axes)
        }
        let formats = Set(modelSources.map(\.format.rawValue)).sorted().joined(separator: ", ")
        if format == .mat {
            throw DatasetSourceError(
                file: url.path,
                message: "a MAT-file is read with the variable and axes of the model's own MAT sources, and this model was "
                    + "trained on none (its sources: \(formats)); convert the file to one of those formats")
        }
        if format == .openpose {
            // Pixel coordinates become [0, 1] by the image size of the model's OpenPose sources; without
            // one every keypoint was clamped to a corner and the model answered confidently anyway.
            throw DatasetSourceError(
                file: url.path,
                message: "an OpenPose folder is read with the image size of the model's own OpenPose sources, and this model "
                    + "was trained on none (its sources: \(formats)); convert the frames to one of those formats")
        }
        return DataSource(format: format, path: url, frameRate: configuration.features.frameRate)
    }

    /// Whether `url` starts with MPEG-TS's sync byte 0x47 (a `.ts` video) rather than the text of
    /// a UEA/UCR `.ts` file (`#` comments or `@` headers).
    static func isMPEGTransportStream(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 1))?.first == 0x47
    }
}
