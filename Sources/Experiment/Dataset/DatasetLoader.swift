import FeatureCache
import Foundation
import Pose

/// Reads the sources a manifest names, through the feature cache, into labelled sequences per
/// split.
///
/// Each source file is imported once and cached under the SHA-256 of its bytes and the
/// importer's fingerprint (name, version, layout, frame rate, label); later runs read the cache.
/// Every file is tried; if any fails, one error lists them all and nothing is trained.
///
/// Only a description of each sequence (``CachedSequence``) is read at first. When the keypoints
/// of all splits together take at most ``inMemoryLimit`` bytes, the sequences are then read into
/// memory; otherwise they stay references into the cache and batches read their frames on demand
/// (``WindowSet``), so that memory does not grow with the data set. Results are the same either way.
public struct DatasetLoader {
    /// The default of ``inMemoryLimit``: 256 MiB of keypoints (about 1,000 sequences of 10 minutes
    /// of Vision-18 pose at 30 fps).
    public static let defaultInMemoryLimit = 256 << 20
    /// The resolved manifest.
    public var configuration: ExperimentConfiguration
    /// Where imported sequences are cached.
    public var cache: FeatureCache
    /// Receives one line per source (its files, sequences, cache hits and imports).
    public var log: (String) -> Void
    /// The largest data set, in bytes of Float32 keypoints over all splits, held in memory; larger
    /// ones are streamed from the cache.
    public var inMemoryLimit = Self.defaultInMemoryLimit

    public init(configuration: ExperimentConfiguration, cache: FeatureCache, log: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.cache = cache
        self.log = log
    }

    /// Imports (or reads from the cache) every source and splits the data.
    /// - Throws: `ExperimentError.sourcesFailed` listing every file that could not be imported
    ///   or listed, `ExperimentError.emptySplit` if no training sequence remains after label
    ///   mapping.
    public func load() throws -> LoadedDataset {
        let dataset = configuration.dataset
        for file in (try? cache.removeAbandonedTemporaryFiles()) ?? [] {
            log("removed \(file.path), left by an import that was killed")
        }
        var failures: [String] = []
        var records: [DataSourceRecord] = []
        var hits = 0
        func read(_ sources: [DataSource], role: String) -> [DatasetSequence] {
            var sequences: [DatasetSequence] = []
            for source in sources {
                do {
                    var counts = (files: 0, sequences: 0, hits: 0)
                    for (file, label) in try files(of: source) {
                        do {
                            let result = try importFile(file, label: label, source: source)
                            sequences += result.sequences.map(DatasetSequence.init(cached:))
                            records.append(DataSourceRecord(
                                role: role, path: file.path, sha256: result.sourceHash, cacheKey: result.key,
                                sequences: result.sequences.count))
                            counts.files += 1
                            counts.sequences += result.sequences.count
                            if result.hit { counts.hits += 1 }
                        } catch {
                            failures.append("\(error)")
                        }
                    }
                    hits += counts.hits
                    let files = counts.files == 1 ? "1 file" : "\(counts.files) files"
                    log("\(role): \(source.path.path): \(counts.sequences) sequences from \(files) "
                        + "(\(counts.hits) from the cache, \(counts.files - counts.hits) imported)")
                } catch {
                    failures.append("\(error)")
                }
            }
            return sequences
        }
        var train = read(dataset.sources, role: "train")
        var validation = dataset.validation.strategy == .files ? read(dataset.validation.sources, role: "validation") : []
        let test = read(dataset.test?.sources ?? [], role: "test")
        guard failures.isEmpty else { throw ExperimentError.sourcesFailed(failures) }
        try checkNoOverlap(records)
        try checkLabelMapping(train + validation + test)

        train = relabeled(train)
        validation = relabeled(validation)
        let mappedTest = relabeled(test)
        guard !train.isEmpty else {
            throw ExperimentError.emptySplit("train", reason: "no training sequence is left after dataset.labels")
        }
        if dataset.validation.strategy == .automatic {
            (train, validation) = ValidationSplit(fraction: dataset.validation.fraction, seed: dataset.validation.seed).split(train)
        }
        let labels = Set(train.map(\.label)).sorted()
        var loaded = LoadedDataset(
            train: train, validation: validation, test: mappedTest, labels: labels, records: records, cacheHits: hits)
        let bytes = (train + validation + mappedTest).reduce(0) { $0 + $1.valueCount } * MemoryLayout<Float>.size
        if bytes <= inMemoryLimit {
            try loaded.loadIntoMemory()
        } else {
            log("streaming \(bytes >> 20) MiB of keypoints from the feature cache (in memory up to \(inMemoryLimit >> 20) MiB)")
        }
        return loaded
    }

    /// The files of a source with the label of each (nil: the file carries its own labels).
    private func files(of source: DataSource) throws -> [(URL, String?)] {
        switch source.format {
        case .uea:
            return [(source.path, source.label)]
        case .csv:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source.path.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                return [(source.path, source.label)]
            }
            if let label = source.label {
                // A folder with a label: every CSV file directly inside it has that label.
                let names = try FileManager.default.contentsOfDirectory(atPath: source.path.path)
                    .filter { $0.lowercased().hasSuffix(".csv") && !$0.hasPrefix(".") }.sorted()
                guard !names.isEmpty else {
                    throw ExperimentError.noSourceFiles(path: source.path.path, expected: "CSV files directly inside the folder (the source has a label)")
                }
                return names.map { (source.path.appendingPathComponent($0), label) }
            }
            // Create ML's labelled-directories layout: <folder>/<label>/<file>.csv.
            let entries = try LabeledDirectory.entries(in: source.path)
            guard !entries.isEmpty else {
                throw ExperimentError.noSourceFiles(
                    path: source.path.path,
                    expected: "CSV files in label folders (<folder>/<label>/*.csv), or give the source a 'label' for CSV files directly inside it")
            }
            return entries.map { ($0.url, $0.label) }
        }
    }

    private func importer(for format: DataSource.Format) -> any SequenceImporter {
        switch format {
        case .uea: return UEATimeSeriesImporter()
        case .csv: return KeypointCSVImporter()
        }
    }

    private func importFile(_ file: URL, label: String?, source: DataSource)
        throws -> (sequences: [CachedSequence], key: String, sourceHash: String, hit: Bool) {
        let importer = importer(for: source.format)
        let layout = configuration.features.layout
        var settings: [String: String] = [:]
        if let label { settings["label"] = label }
        let fingerprint = ImporterFingerprint(importer: importer.name, version: "\(importer.version)", settings: settings)
        let result = try cache.sequenceIndex(
            source: file, fingerprint: fingerprint, layoutName: layout.name, frameRate: source.frameRate
        ) {
            try importer.importSequences(from: file, layout: layout, frameRate: source.frameRate, label: label)
        }
        return (result.sequences, result.key.hexDigest, result.sourceHash.hexDigest, result.hit)
    }

    /// Fails if one file serves two roles (train and test, say): test scores would be measured on
    /// training data. Files are compared by content (SHA-256), so a copy counts too.
    private func checkNoOverlap(_ records: [DataSourceRecord]) throws {
        var roleOfHash: [String: DataSourceRecord] = [:]
        for record in records {
            if let earlier = roleOfHash[record.sha256], earlier.role != record.role {
                throw ExperimentError.dataLeak(first: earlier.path, firstRole: earlier.role, second: record.path, secondRole: record.role)
            }
            roleOfHash[record.sha256] = roleOfHash[record.sha256] ?? record
        }
    }

    /// Fails if a key of `dataset.labels` names no label in the data (a misspelt label would
    /// otherwise be kept under its raw name without a word).
    private func checkLabelMapping(_ sequences: [DatasetSequence]) throws {
        let present = Set(sequences.map(\.label))
        let unused = configuration.dataset.labels.keys.filter { !present.contains($0) }.sorted()
        guard unused.isEmpty else {
            throw ExperimentError.unusedLabelMapping(unused, present: present.sorted())
        }
    }

    /// Applies `dataset.labels`: renames, and drops sequences whose label maps to null.
    private func relabeled(_ sequences: [DatasetSequence]) -> [DatasetSequence] {
        let mapping = configuration.dataset.labels
        return sequences.compactMap { sample in
            guard let mapped = mapping[sample.label] else { return sample }
            guard let newLabel = mapped else { return nil }
            var renamed = sample
            renamed.label = newLabel
            return renamed
        }
    }
}
