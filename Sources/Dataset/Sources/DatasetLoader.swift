import FeatureCache
import Foundation
import Manifest
import Pose

/// Reads the sources a manifest names, through the feature cache, into labelled sequences per
/// split.
///
/// Each source file is imported once and cached under the SHA-256 of its bytes and the
/// importer's fingerprint (name, version, layout, frame rate, label, and for MAT-files the
/// variable and its axes); later runs read the cache. Keypoint and sensor files are read on
/// ``workers`` threads at once, with a progress line every few seconds for a source that takes
/// longer; a later run finds an unchanged file's hash in the cache's ``FileIdentityIndex``
/// without reading the file again.
/// Videos are extracted once per file (``VideoPoseExtractor``, keyed without the label, so one
/// extraction serves every dataset and annotation using the file) and cut and resampled per sample.
///
/// Every file is tried. What a file that fails does follows ``DatasetConfiguration/failurePolicy(for:)``:
/// with `fail` (the default for keypoint and sensor files) one error lists every such file and
/// nothing is trained; with `skip` (the default for videos) the file is logged as a warning and
/// listed in ``LoadedDataset/skipped`` (and so in each trial's `provenance.json`), and the rest trains.
///
/// Only a description of each keypoint sequence (``CachedSequence``) is read at first. When the
/// keypoints of all splits together take at most ``inMemoryLimit`` bytes, the sequences are then
/// read into memory; otherwise they stay references into the cache and batches read their frames
/// on demand (``WindowSet``), so that memory does not grow with the data set. Results are the same
/// either way. Video samples (cut from a cached extraction) are held in memory.
public struct DatasetLoader {
    /// The default of ``inMemoryLimit``: 256 MiB of keypoints (about 1,000 sequences of 10 minutes
    /// of Vision-18 pose at 30 fps).
    public static let defaultInMemoryLimit = 256 << 20
    /// The resolved manifest.
    public var configuration: ExperimentConfiguration
    /// Where imported sequences are cached.
    public var cache: FeatureCache
    /// Receives one line per source (its files, sequences, cache hits and imports), and warnings.
    public var log: (String) -> Void
    /// The largest data set, in bytes of Float32 keypoints over all splits, held in memory; larger
    /// ones are streamed from the cache.
    public var inMemoryLimit = Self.defaultInMemoryLimit
    /// How many videos are extracted, and keypoint and sensor files imported (or hashed and read
    /// from the cache), at once; default `features.workers`, else the cores this process may run
    /// on. Sequences, cache entries, logs and errors are the same for every value.
    public var workers: Int

    /// Creates a loader of `configuration`'s sources through `cache`, with ``workers`` from `features.workers`.
    public init(configuration: ExperimentConfiguration, cache: FeatureCache, log: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.cache = cache
        self.log = log
        workers = configuration.features.extractionWorkers
    }

    /// Imports (or reads from the cache) every source and splits the data.
    /// - Throws: `DatasetError.sourcesFailed` listing every file that could not be imported
    ///   or listed under the `fail` policy, `DatasetError.emptySplit` if no training sequence
    ///   remains after label mapping and skipped files.
    public func load() throws -> LoadedDataset {
        let dataset = configuration.dataset
        for file in (try? cache.removeAbandonedTemporaryFiles()) ?? [] {
            log("removed \(file.path), left by an import that was killed")
        }
        var failures: [String] = []
        var skipped: [String] = []
        var emptyTrainingSources: [String] = []
        var records: [DataSourceRecord] = []
        // Where each (role, path) is in `records`: a source of many files looks each one up.
        var recordPositions: [String: [String: Int]] = [:]
        var hits = 0
        let videos = VideoSequenceReader(cache: cache, pose: configuration.features.pose, log: log)
        let testSelection = dataset.test.flatMap { $0.selection.isEmpty ? nil : $0 }
        var selectedForTest: [DatasetSequence] = []
        func read(_ sources: [DataSource], role sourceRole: String) -> [DatasetSequence] {
            var sequences: [DatasetSequence] = []
            for source in sources {
                let policy = dataset.failurePolicy(for: source.format)
                func failed(_ error: Error) {
                    switch policy {
                    case .fail:
                        failures.append("\(error)")
                    case .skip:
                        log("warning: skipped (dataset.onError 'skip'): \(error)")
                        skipped.append("\(error)")
                    }
                }
                do {
                    // Per distinct file (montage annotations name one video many times): read from the cache?
                    var fileHits: [String: Bool] = [:]
                    var sequenceCount = 0
                    var clamped = ClampedKeypoints()
                    let samples = try source.samples()
                    for (sample, outcome) in zip(samples, readSamples(samples, source: source, role: sourceRole, videos: videos)) {
                        do {
                            let result = try outcome.get()
                            let named = result.sequences.map { sequence in
                                var named = sequence
                                named.fields = sample.fields
                                return named
                            }
                            // `dataset.test.where` moves a training file, whole, to the test set.
                            let role = sourceRole == "train" && testSelection?.selects(sample.fields) == true ? "test" : sourceRole
                            if role == sourceRole { sequences += named } else { selectedForTest += named }
                            // The file's recordings, under its role until the validation split assigns them.
                            let groups = Set(result.sequences.map(\.group))
                            let path = sample.file.path
                            if let index = recordPositions[role]?[path] {
                                let earlier = records[index].splits?[role] ?? []
                                records[index].splits = [role: Array(groups.union(earlier))]
                            } else {
                                recordPositions[role, default: [:]][path] = records.count
                                records.append(DataSourceRecord(
                                    role: role, path: path, sha256: result.sourceHash, cacheKey: result.key,
                                    sequences: result.sequences.count, splits: [role: Array(groups)],
                                    clampedKeypoints: result.clamped?.count))
                            }
                            if let fileClamped = result.clamped { clamped.add(fileClamped) }
                            if fileHits[path] == nil { fileHits[path] = result.hit }
                            sequenceCount += result.sequences.count
                        } catch {
                            failed(error)
                        }
                    }
                    let fileCount = fileHits.count, hitCount = fileHits.values.filter { $0 }.count
                    hits += hitCount
                    let files = fileCount == 1 ? "1 file" : "\(fileCount) files"
                    // Under the `fail` policy a failed file stops the run: its error says it all.
                    guard failures.isEmpty else { continue }
                    log("\(sourceRole): \(source.path.path): \(sequenceCount) sequence\(sequenceCount == 1 ? "" : "s") from \(files) "
                        + "(\(hitCount) from the cache, \(fileCount - hitCount) imported)")
                    if clamped.count > 0 { log(Self.clampingWarning(clamped, role: sourceRole, source: source)) }
                    if sequenceCount == 0 && sourceRole == "train" { emptyTrainingSources.append(source.path.path) }
                } catch {
                    failed(error)
                }
            }
            return sequences
        }
        // The entries are flushed once, after the last import, not two `fsync`s each.
        var (train, validation, test) = try cache.withDeferredSync {
            let train = read(dataset.sources, role: "train")
            let validation = dataset.validation.strategy == .files ? read(dataset.validation.sources, role: "validation") : []
            return (train, validation, read(dataset.test?.sources ?? [], role: "test"))
        }
        test += selectedForTest
        saveIdentityIndex()
        guard failures.isEmpty else { throw DatasetError.sourcesFailed(failures) }
        try checkNoOverlap(records)
        try checkLabelMapping(train + validation + test)

        train = relabeled(train)
        validation = relabeled(validation)
        let mappedTest = relabeled(test)
        if let selection = testSelection {
            guard !selectedForTest.isEmpty else {
                throw DatasetError.emptySplit(
                    "test", reason: "dataset.test.where (\(selection.selectionDescription)) selects none of the training files")
            }
            guard !train.isEmpty else {
                throw DatasetError.emptySplit(
                    "train", reason: "dataset.test.where (\(selection.selectionDescription)) selects every training file")
            }
        }
        guard !train.isEmpty else {
            // Name the sources that gave nothing and the files skipped, so the message points at
            // the file to look at.
            var causes: [String] = []
            if !emptyTrainingSources.isEmpty {
                causes.append("\(emptyTrainingSources.joined(separator: ", ")) gave no sequences (no samples in it, or every sample skipped)")
            }
            if let first = skipped.first {
                causes.append("\(skipped.count) skipped (dataset.onError 'skip'), the first: \(first)")
            }
            throw DatasetError.emptySplit("train", reason: causes.isEmpty
                ? "no training sequence is left after dataset.labels and skipped files"
                : "no training sequence is left: " + causes.joined(separator: "; "))
        }
        if dataset.validation.strategy == .automatic {
            let split = ValidationSplit(fraction: dataset.validation.fraction, seed: dataset.validation.seed)
            if let field = dataset.validation.groupBy {
                if let ungrouped = train.first(where: { $0.fields[field] == nil }) {
                    throw DatasetError.missingField(field, sequence: ungrouped.id, present: ungrouped.fields.keys.sorted())
                }
                (train, validation) = split.split(train) { $0.fields[field] ?? $0.group }
                guard !validation.isEmpty else {
                    let values = Set(train.compactMap { $0.fields[field] }).count
                    throw DatasetError.emptySplit(
                        "validation", reason: "dataset.validation.groupBy '\(field)' needs at least two \(field) values in the training "
                            + "files to hold one out, and they have \(values)")
                }
            } else {
                (train, validation) = split.split(train)
            }
        }
        records = DataSourceRecord.assigningSplits(records, splits: ["train": train, "validation": validation, "test": mappedTest])
        let labels = Set(train.map(\.label)).sorted()
        var loaded = LoadedDataset(
            train: train, validation: validation, test: mappedTest, labels: labels, records: records, cacheHits: hits, skipped: skipped)
        loaded.splitMethods = splitMethods(of: loaded)
        let bytes = (train + validation + mappedTest).reduce(0) { $0 + $1.valueCount } * MemoryLayout<Float>.size
        if bytes <= inMemoryLimit {
            try loaded.loadIntoMemory()
        } else {
            log("streaming \(bytes >> 20) MiB of keypoints from the feature cache (in memory up to \(inMemoryLimit >> 20) MiB)")
        }
        return loaded
    }

    /// One sentence per split saying how it was made, with its sequence count.
    private func splitMethods(of loaded: LoadedDataset) -> [String] {
        let dataset = configuration.dataset
        func count(_ sequences: [DatasetSequence]) -> String { sequences.count == 1 ? "1 sequence" : "\(sequences.count) sequences" }
        func values(_ sequences: [DatasetSequence], _ field: String) -> [String] {
            Set(sequences.compactMap { $0.fields[field] }).sorted { (Int($0) ?? 0, $0) < (Int($1) ?? 0, $1) }
        }
        var methods: [String] = []
        let test: String
        switch dataset.test {
        case nil: test = "no test set"
        case let selection? where !selection.selection.isEmpty:
            test = "the files of dataset.sources whose \(selection.selectionDescription), never trained or validated on (\(count(loaded.test)))"
        case .some: test = "its own sources (\(count(loaded.test)))"
        }
        methods.append("test: \(test)")
        let validation: String
        switch (dataset.validation.strategy, dataset.validation.groupBy) {
        case (.none, _): validation = "none"
        case (.files, _): validation = "its own sources (\(count(loaded.validation)))"
        case (.automatic, let field?):
            let held = values(loaded.validation, field), all = values(loaded.train + loaded.validation, field)
            validation = "\(held.count) of the \(all.count) \(field) values of the training files (\(field) \(held.joined(separator: ", "))), "
                + "seeded (seed \(dataset.validation.seed)), whole \(field)s, so no \(field) is on both sides (\(count(loaded.validation)))"
        case (.automatic, nil):
            validation = "\(Int((dataset.validation.fraction * 100).rounded())) % of each label's recordings, seeded "
                + "(seed \(dataset.validation.seed)), grouped by recording only: a subject may be on both sides "
                + "(give the sources a `pattern` with a subject field and set dataset.validation.groupBy) (\(count(loaded.validation)))"
        }
        methods.append("validation: \(validation)")
        let fields = [dataset.validation.groupBy].compactMap { $0 } + (dataset.test?.selection.keys.sorted() ?? [])
        let trainValues = fields.first.map { field in " (\(field) \(values(loaded.train, field).joined(separator: ", ")))" } ?? ""
        methods.append("train: the remaining \(count(loaded.train))\(trainValues)")
        return methods
    }

    /// The sequences of one file of `source`, read through the feature cache as ``load()`` reads
    /// it (imported once, then read from the cache; a video's poses extracted once): for
    /// prediction on inputs that belong to no split.
    ///
    /// - Parameters:
    ///   - sample: The file (and, for a video, the time range) to read; its label may be nil.
    ///   - source: The format and its settings (frame rate, MAT variable and axes, image size).
    /// - Returns: The file's sequences (most formats give one; UEA files give one per row).
    /// - Throws: That file's import, extraction or cache error, naming the file.
    public func sequences(of sample: DatasetSample, in source: DataSource) throws -> [DatasetSequence] {
        let videos = VideoSequenceReader(cache: cache, pose: configuration.features.pose, log: log)
        return try readSample(sample, source: source, videos: videos).sequences
    }

    /// What reading one sample gives: its sequences, the cache facts of its file and, for
    /// importers that clamp coordinates onto the image, the keypoints they clamped.
    private typealias SampleResult = (
        sequences: [DatasetSequence], key: String, sourceHash: String, hit: Bool, clamped: ClampedKeypoints?
    )

    /// Reads the samples of one source, keypoint and sensor files on ``workers`` threads (videos
    /// are extracted on ``workers`` threads first, then cut one at a time), each sample's outcome
    /// in the samples' order whatever the number of workers, with a progress line every few seconds.
    private func readSamples(_ samples: [DatasetSample], source: DataSource, role: String, videos: VideoSequenceReader)
        -> [Result<SampleResult, any Error>] {
        let isVideo = source.format == .video || source.format == .montage
        let progress = ImportProgress(
            total: samples.count, subject: "\(role): \(source.path.path)", unit: source.format == .openpose ? "folders" : "files",
            log: log)
        if isVideo {
            // Videos are extracted `workers` at a time first; reading them is then cutting and resampling.
            let files = samples.map(\.file)
            let extracting = ImportProgress(
                total: Set(files.map(\.path)).count, subject: "\(role): \(source.path.path)", unit: "videos", log: log)
            videos.prefetch(files, frameRate: source.frameRate, workers: workers, finishedOne: extracting.finishedOne)
        }
        return OrderedParallelMap.map(samples, workers: isVideo ? 1 : workers) { sample in
            defer { progress.finishedOne() }
            return Result { try readSample(sample, source: source, videos: videos) }
        }
    }

    /// Writes the feature cache's file-identity index (the hashes of the source files read), and
    /// logs once if the index on disk was damaged; a failure to save is a warning, since the
    /// index only saves time.
    private func saveIdentityIndex() {
        if let damage = cache.identities.takeDamageReport() { log("warning: \(damage)") }
        do {
            try cache.identities.save()
        } catch {
            log("warning: \(error); source files will be hashed again next time")
        }
    }

    /// The sequences of one sample, with the cache facts of its file and, for importers that
    /// clamp coordinates onto the image, the keypoints they clamped.
    private func readSample(_ sample: DatasetSample, source: DataSource, videos: VideoSequenceReader) throws -> SampleResult {
        switch source.format {
        case .video, .montage:
            let (sequence, result) = try videos.sequence(of: sample, source: source)
            return ([DatasetSequence(sequence)], result.key.hexDigest, result.sourceHash.hexDigest, result.hit, nil)
        case .openpose:
            let importer = OpenPoseJSONImporter(imageWidth: source.imageSize?.width ?? 1, imageHeight: source.imageSize?.height ?? 1)
            // Each frame file is read once: the bytes read to hash it are imported on a miss.
            let folder = try cache.identities.hashFolder(at: sample.file, fileExtension: "json")
            let hash = folder.hash
            let settings = [
                "label": sample.label ?? "", "image_width": "\(importer.imageWidth)", "image_height": "\(importer.imageHeight)",
            ]
            let result = try cache.entry(
                sourcePath: sample.file.path, sourceHash: hash,
                fingerprint: ImporterFingerprint(importer: importer.name, version: "\(importer.version)", settings: settings),
                layoutName: configuration.features.layout.name, frameRate: source.frameRate
            ) {
                let imported = try importer.importContents(
                    from: sample.file, layout: configuration.features.layout, frameRate: source.frameRate, label: sample.label,
                    readFiles: folder.readFiles)
                return ImportedContents(sequences: imported.sequences, metadata: imported.clamped.metadata)
            }
            return (
                result.entry.sequences.map(DatasetSequence.init), result.entry.key.hexDigest, hash.hexDigest, result.hit,
                ClampedKeypoints(metadata: result.entry.metadata)?.located(at: sample.file.path))
        case .uea, .csv, .kinetics, .mat:
            let imported = try importFile(sample.file, label: sample.label, source: source)
            return (imported.sequences.map(DatasetSequence.init(cached:)), imported.key, imported.sourceHash, imported.hit, imported.clamped)
        }
    }

    /// The importer of a keypoint or sensor file source, and the settings besides the label that
    /// change what it imports (part of the cache fingerprint).
    private func importer(for source: DataSource) -> (importer: any SequenceImporter, settings: [String: String]) {
        switch source.format {
        case .uea: return (UEATimeSeriesImporter(), [:])
        case .kinetics: return (KineticsSkeletonImporter(), [:])
        case .mat:
            let axes = source.resolvedAxes
            return (
                MATFileImporter(variable: source.variable ?? "", axes: axes),
                ["variable": source.variable ?? "", "axes": axes.map(\.rawValue).joined(separator: ",")]
            )
        default: return (KeypointCSVImporter(), [:])
        }
    }

    /// Imports one keypoint or sensor file through the cache; for Kinetics, whose importer clamps
    /// coordinates onto the image, also the keypoints it clamped (recorded in the entry).
    private func importFile(_ file: URL, label: String?, source: DataSource)
        throws -> (sequences: [CachedSequence], key: String, sourceHash: String, hit: Bool, clamped: ClampedKeypoints?) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DatasetSourceError(
                file: file.path, message: "is a folder, not a \(source.format.rawValue) file: rename or remove it, or move its files up")
        }
        let (importer, importerSettings) = importer(for: source)
        var settings = importerSettings
        let layout = configuration.features.layout
        if let label { settings["label"] = label }
        let fingerprint = ImporterFingerprint(importer: importer.name, version: "\(importer.version)", settings: settings)
        let result = try cache.contentsIndex(
            source: file, fingerprint: fingerprint, layoutName: layout.name, frameRate: source.frameRate
        ) {
            if let kinetics = importer as? KineticsSkeletonImporter {
                let imported = try kinetics.importContents(from: file, layout: layout, frameRate: source.frameRate, label: label)
                return ImportedContents(sequences: imported.sequences, metadata: imported.clamped.metadata)
            }
            return ImportedContents(sequences: try importer.importSequences(from: file, layout: layout, frameRate: source.frameRate, label: label))
        }
        let clamped = source.format == .kinetics ? ClampedKeypoints(metadata: result.metadata)?.located(at: file.path) : nil
        return (result.sequences, result.key.hexDigest, result.sourceHash.hexDigest, result.hit, clamped)
    }

    /// The one warning line of a source whose importer clamped keypoints onto the image border.
    static func clampingWarning(_ clamped: ClampedKeypoints, role: String, source: DataSource) -> String {
        let size = source.imageSize.map { " (imageSize [\($0.width), \($0.height)])" } ?? ""
        return "warning: \(role): \(source.path.path): \(clamped.count) keypoint\(clamped.count == 1 ? " was" : "s were") "
            + "outside the image\(size) and clamped to its border; the first: \(clamped.first ?? "unknown")"
    }

    /// Fails if one file serves two roles (train and test, say): test scores would be measured on
    /// training data. Files are compared by content (SHA-256), so a copy counts too.
    private func checkNoOverlap(_ records: [DataSourceRecord]) throws {
        var roleOfHash: [String: DataSourceRecord] = [:]
        for record in records {
            if let earlier = roleOfHash[record.sha256], earlier.role != record.role {
                throw DatasetError.dataLeak(first: earlier.path, firstRole: earlier.role, second: record.path, secondRole: record.role)
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
            throw DatasetError.unusedLabelMapping(unused, present: present.sorted())
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
