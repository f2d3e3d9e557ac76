import AtomicFiles
import Extraction
import Foundation
import Manifest
import Pose

extension DataSource {
    /// The samples of this source, in an order that depends only on names (so splits are reproducible).
    ///
    /// - `uea`: the file (labels inside).
    /// - `csv`: the file; a folder with a label: its `.csv` files; else labeled directories.
    /// - `video`: a file (label: `label`, else the labeled-files rule); a folder with label
    ///   folders: labeled directories of videos and pictures; else labeled files
    ///   (``MediaFiles/label(ofLabeledFile:)``), or every file with `label` when given.
    /// - `montage`: the annotations (``MontageAnnotations``).
    /// - `openpose`: a folder of JSON files with `label` is one clip; else `<folder>/<label>/<clip>/`.
    /// - `kinetics`: a file; a folder of `.json` files (labels inside, or `label`); or labeled directories.
    /// - `mat`: as `csv`, with `.mat` files.
    ///
    /// A glob ``path`` lists the samples of each match in turn, as if each were the source's path.
    /// With a ``pattern``, each sample's file name gives its fields (``DatasetSample/fields``) and,
    /// from the group `label`, its label; a file (or clip folder) of a folder source counts as
    /// labeled when the pattern has a `label` group, as when the source has a `label`.
    /// - Throws: ``DatasetSourceError`` (also for a file whose name the pattern does not match) or
    ///   ``DatasetError/noSourceFiles(path:expected:)``.
    public func samples() throws -> [DatasetSample] {
        if isGlob {
            var samples: [DatasetSample] = []
            for match in GlobPattern.matches(of: path.path) {
                var single = self
                single.path = URL(fileURLWithPath: match)
                samples += try single.samples()
            }
            guard !samples.isEmpty else {
                throw DatasetError.noSourceFiles(path: path.path, expected: "files or folders matching the pattern")
            }
            return samples
        }
        guard let pattern else { return try unnamedSamples() }
        var labeled = self
        // Listing as a labeled source: the label is a placeholder, replaced from each name below.
        if pattern.providesLabel && labeled.label == nil { labeled.label = "" }
        var named: [DatasetSample] = []
        var unmatched: [String] = []
        for sample in try labeled.unnamedSamples() {
            let name = sample.file.lastPathComponent
            guard let fields = pattern.fields(of: name) else {
                unmatched.append(sample.file.path)
                continue
            }
            if pattern.providesLabel && fields["label"]?.isEmpty != false {
                throw DatasetSourceError(
                    file: sample.file.path, message: "the group 'label' of the source's pattern '\(pattern.source)' matched no text in '\(name)'")
            }
            var sample = sample
            sample.fields = fields
            if let label = fields["label"] { sample.label = label }
            named.append(sample)
        }
        guard unmatched.isEmpty else {
            let listed = unmatched.prefix(5).map { "  \($0)" }.joined(separator: "\n")
            let more = unmatched.count > 5 ? "\n  ... and \(unmatched.count - 5) more" : ""
            throw DatasetSourceError(
                file: path.path,
                message: "\(unmatched.count) of \(unmatched.count + named.count) file names do not match the source's pattern "
                    + "'\(pattern.source)' (it must match the whole name):\n\(listed)\(more)")
        }
        return named
    }

    /// The samples of the source's path, without file-name fields.
    private func unnamedSamples() throws -> [DatasetSample] {
        switch format {
        case .uea:
            return [DatasetSample(file: path, label: label)]
        case .csv:
            return try keypointFiles(extension: "csv", labelsInside: false)
        case .kinetics:
            return try keypointFiles(extension: "json", labelsInside: true)
        case .mat:
            return try keypointFiles(extension: "mat", labelsInside: false)
        case .montage:
            return try MontageAnnotations.samples(in: path)
        case .video:
            return try videoSamples()
        case .openpose:
            return try openPoseSamples()
        }
    }

    private var isDirectory: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Visible entries of `folder`, sorted by name.
    private static func contents(of folder: URL) throws -> [URL] {
        do {
            return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw DatasetSourceError(file: folder.path, message: "cannot list: \(FileErrorReason.of(error))")
        }
    }

    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// CSV or Kinetics JSON: a file, a folder of files (with a label, or labels inside), or labeled directories.
    private func keypointFiles(extension fileExtension: String, labelsInside: Bool) throws -> [DatasetSample] {
        guard isDirectory else { return [DatasetSample(file: path, label: label)] }
        // A folder named like a file is a sample too: reading it fails, naming it, where skipping it would lose it silently.
        let direct = try Self.contents(of: path).filter { $0.pathExtension.lowercased() == fileExtension }
        if label != nil || (labelsInside && !direct.isEmpty) {
            guard !direct.isEmpty else {
                throw DatasetError.noSourceFiles(path: path.path, expected: "\(fileExtension.uppercased()) files directly inside the folder (the source has a label)")
            }
            return direct.map { DatasetSample(file: $0, label: label) }
        }
        let entries = try LabeledDirectory.entries(in: path, fileExtension: fileExtension)
        guard !entries.isEmpty else {
            throw DatasetError.noSourceFiles(
                path: path.path,
                expected: "\(fileExtension.uppercased()) files in label folders (<folder>/<label>/*.\(fileExtension)), or give the source a 'label' for files directly inside it")
        }
        return entries.map { DatasetSample(file: $0.url, label: $0.label) }
    }

    private func videoSamples() throws -> [DatasetSample] {
        guard isDirectory else {
            guard let label = label ?? MediaFiles.label(ofLabeledFile: path) else {
                throw DatasetSourceError(file: path.path, message: "no label: give the source a 'label' or name the file <label>.<n>.<ext>")
            }
            return [DatasetSample(file: path, label: label)]
        }
        let entries = try Self.contents(of: path)
        let folders = entries.filter(Self.isFolder)
        var samples: [DatasetSample] = []
        if label == nil && !folders.isEmpty {
            // Labeled directories: <folder>/<label>/<video>.
            for folder in folders {
                for file in try Self.contents(of: folder) where MediaFiles.isMedia(file) && !Self.isFolder(file) {
                    samples.append(DatasetSample(file: file, label: folder.lastPathComponent))
                }
            }
        } else {
            // Labeled files: <folder>/<label>.<n>.<ext>, or every file with the source's label.
            for file in entries where MediaFiles.isMedia(file) && !Self.isFolder(file) {
                guard let fileLabel = label ?? MediaFiles.label(ofLabeledFile: file) else {
                    throw DatasetSourceError(file: file.path, message: "no label in the file name: expected <label>.<n>.<ext>, such as squat.3.mov")
                }
                samples.append(DatasetSample(file: file, label: fileLabel))
            }
        }
        guard !samples.isEmpty else {
            let extensions = (MediaFiles.videoExtensions.union(MediaFiles.imageExtensions)).sorted().joined(separator: ", ")
            throw DatasetError.noSourceFiles(
                path: path.path, expected: "videos or pictures (\(extensions)) in label folders (<folder>/<label>/<file>) or named <label>.<n>.<ext>")
        }
        return samples
    }

    private func openPoseSamples() throws -> [DatasetSample] {
        if let label { return [DatasetSample(file: path, label: label)] }
        var samples: [DatasetSample] = []
        for labelFolder in try Self.contents(of: path) where Self.isFolder(labelFolder) {
            for clip in try Self.contents(of: labelFolder) where Self.isFolder(clip) {
                samples.append(DatasetSample(file: clip, label: labelFolder.lastPathComponent))
            }
        }
        guard !samples.isEmpty else {
            throw DatasetError.noSourceFiles(
                path: path.path, expected: "clip folders of OpenPose JSON files in label folders (<folder>/<label>/<clip>/*.json), or give the source a 'label' for one clip folder")
        }
        return samples
    }
}
