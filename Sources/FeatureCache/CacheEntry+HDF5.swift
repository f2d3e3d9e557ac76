import AtomicFiles
import ContentHashing
import Foundation
import HDF5
import Pose

extension CacheEntry {
    /// Keypoint arrays with at least this many values are stored gzip-compressed.
    static let compressionThreshold = 4_096

    /// The group name of sequence `index`: six zero-padded digits (`000042`).
    static func sequenceGroupName(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Writes the entry to `url` atomically (``AtomicFile/write(_:to:temporary:)``), replacing any
    /// file there: its checksum header, then the HDF5 file in the layout described on ``CacheEntry``.
    /// - Parameter url: the file to write; its folder is created if needed.
    /// - Throws: what ``fileContents()`` throws, ``FeatureCacheError/cannotWrite(file:operation:reason:)``
    ///   if the file cannot be written (a full disk: `No space left on device`).
    public func write(to url: URL) throws {
        try Self.writeAtomically(try fileContents(), to: url, temporary: nil)
    }

    /// Writes `contents` with ``AtomicFile``, turning its error into ``FeatureCacheError``.
    static func writeAtomically(_ contents: Data, to url: URL, temporary: URL?, syncing: Bool = true) throws {
        do {
            try AtomicFile.write(contents, to: url, temporary: temporary, syncing: syncing)
        } catch let error as AtomicFileError {
            throw FeatureCacheError.cannotWrite(file: error.path, operation: error.operation, reason: error.reason)
        }
    }

    /// The bytes of the entry's file: the 512-byte checksum header (the HDF5 user block) and the
    /// HDF5 image, built in memory so that HDF5 itself never writes to disk (a full disk fails
    /// the caller's `write(2)`, not HDF5's flush).
    ///
    /// - Returns: The file's bytes; the header records the SHA-256 and length of the rest.
    /// - Throws: ``FeatureCacheError/invalidSequence(id:reason:)`` for an inconsistent sequence or
    ///   a value that is not finite (checked before anything is built), ``FeatureCacheError/hdf5(_:)``
    ///   if HDF5 fails.
    public func fileContents() throws -> Data {
        for sequence in sequences {
            try Self.validate(sequence)
        }
        guard personCounts.isEmpty || personCounts.count == sequences.count else {
            throw FeatureCacheError.invalidSequence(
                id: sourcePath, reason: "\(personCounts.count) person-count arrays for \(sequences.count) sequences")
        }
        for (sequence, counts) in zip(sequences, personCounts) where counts.count != sequence.sequence.frameCount {
            throw FeatureCacheError.invalidSequence(
                id: sequence.id, reason: "\(counts.count) person counts for \(sequence.sequence.frameCount) frames")
        }
        do {
            let file = try HDF5File.createInMemory(
                name: "\(key.hexDigest).\(UUID().uuidString).h5", userBlockSize: EntryChecksum.headerSize,
                increment: expectedFileSize)
            defer { try? file.close() }
            try writeContents(into: file.root())
            let image = try file.image()
            var contents = try EntryChecksum.header(for: image)
            contents.append(image)
            return contents
        } catch let error as HDF5Error {
            throw FeatureCacheError.hdf5(error)
        }
    }

    /// Writes the root attributes and `/sequences` into `root`, an empty file's root group.
    /// About the entry's size in bytes: its arrays (`float32` keypoints, `float64` timestamps,
    /// `int64` person counts, uncompressed) and 16 KiB of metadata per sequence and for the file,
    /// rounded up to 64 KiB. The in-memory file grows by this much at a time: zeroing 1 MiB for
    /// every entry of a few kilobytes was a tenth of a first import of many short recordings.
    var expectedFileSize: Int {
        var bytes = 16_384
        for (index, labeled) in sequences.enumerated() {
            let pose = labeled.sequence
            bytes += 16_384 + pose.keypoints.count * 4 + pose.timestamps.count * 8
            if index < personCounts.count { bytes += personCounts[index].count * 8 }
        }
        return (bytes + 65_535) / 65_536 * 65_536
    }

    private func writeContents(into root: HDF5Group) throws {
        let attributes = root.attributes
        try attributes.write(Self.format, named: "format")
        try attributes.write(Self.formatVersion, named: "format_version")
        try attributes.write(key.hexDigest, named: "key")
        try attributes.write(sourcePath, named: "source_path")
        try attributes.write(sourceHash.hexDigest, named: "source_sha256")
        try attributes.write(importer, named: "importer")
        try attributes.write(importerVersion, named: "importer_version")
        try attributes.write(fingerprint, named: "fingerprint")
        try attributes.write(layoutName, named: "layout")
        try attributes.write(frameRate, named: "frame_rate")
        try attributes.write(Self.formatDate(created), named: "created")
        try attributes.write(Int64(sequences.count), named: "sequence_count")
        if !metadata.isEmpty { try attributes.write(Self.metadataText(metadata), named: "metadata") }
        let sequencesGroup = try root.createGroup("sequences")
        for (index, labeled) in sequences.enumerated() {
            let group = try sequencesGroup.createGroup(Self.sequenceGroupName(index))
            let pose = labeled.sequence
            try group.createDataset(
                "keypoints", values: pose.keypoints, shape: [pose.frameCount, pose.channelCount, pose.jointCount],
                compression: pose.keypoints.count >= Self.compressionThreshold ? .gzip : nil)
            try group.createDataset("timestamps", values: pose.timestamps, shape: [pose.frameCount])
            try group.attributes.write(labeled.id, named: "id")
            try group.attributes.write(labeled.label, named: "label")
            try group.attributes.write(labeled.group, named: "group")
            try group.attributes.write(pose.frameRate, named: "frame_rate")
            if index < personCounts.count {
                try group.createDataset("person_counts", values: personCounts[index].map(Int64.init), shape: [pose.frameCount])
            }
        }
    }

    /// Verifies and reads an entry written by ``write(to:)``.
    ///
    /// The file's checksum header is checked against the whole file first, so a damaged file
    /// never reaches HDF5's parser; then the layout and every value are validated.
    /// - Parameter url: the entry's file.
    /// - Throws: ``FeatureCacheError/damagedEntry(file:reason:)`` if the bytes differ from the
    ///   checksum header (or it cannot be read), ``FeatureCacheError/unverifiedEntry(file:)`` for
    ///   a file without one, ``FeatureCacheError/hdf5(_:)`` if HDF5 fails to read it,
    ///   ``FeatureCacheError/notACacheEntry(file:format:)``,
    ///   ``FeatureCacheError/unsupportedFormatVersion(file:found:)``, or
    ///   ``FeatureCacheError/malformedEntry(file:object:reason:)`` naming the object whose shape,
    ///   count or key is wrong.
    public init(contentsOf url: URL) throws {
        let path = url.path
        func malformed(_ object: String, _ reason: String) -> FeatureCacheError {
            .malformedEntry(file: path, object: object, reason: reason)
        }
        try EntryChecksum.verify(fileAt: url)
        do {
            let file = try HDF5File.open(at: url, mode: .readOnly)
            defer { try? file.close() }
            let root = try file.root()
            let attributes = root.attributes
            try Self.checkFormat(attributes, file: path)
            let storedKey = try attributes.string("key")
            let sourceHash: ContentHash
            do {
                sourceHash = try ContentHash(hexDigest: attributes.string("source_sha256"))
            } catch is ContentHashError {
                throw malformed("/@source_sha256", "not a SHA-256 hex digest")
            }
            guard let created = Self.parseDate(try attributes.string("created")) else {
                throw malformed("/@created", "not an ISO 8601 time")
            }
            let (sequencesGroup, count) = try Self.sequencesGroup(of: root, file: path)
            var sequences: [LabeledSequence] = []
            sequences.reserveCapacity(count)
            var personCounts: [[Int]] = []
            for index in 0..<count {
                let group = try sequencesGroup.openGroup(Self.sequenceGroupName(index))
                let sequence = try Self.readSequence(in: group, file: path)
                if try group.contains("person_counts") {
                    let counts = try group.openDataset("person_counts").read(Int64.self)
                    guard counts.shape == [sequence.sequence.frameCount] else {
                        throw malformed("\(group.path)/person_counts", "shape \(counts.shape) is not [\(sequence.sequence.frameCount)]")
                    }
                    personCounts.append(counts.values.map { Int($0) })
                }
                sequences.append(sequence)
            }
            try self.init(
                sourcePath: try attributes.string("source_path"), sourceHash: sourceHash,
                importer: try attributes.string("importer"), importerVersion: try attributes.string("importer_version"),
                fingerprint: try attributes.string("fingerprint"), layoutName: try attributes.string("layout"),
                frameRate: try attributes.double("frame_rate"), created: created, sequences: sequences)
            guard personCounts.isEmpty || personCounts.count == sequences.count else {
                throw malformed("/sequences", "person_counts in \(personCounts.count) of \(sequences.count) sequences")
            }
            self.personCounts = personCounts
            metadata = try Self.metadata(in: attributes, file: path)
            guard key.hexDigest == storedKey else {
                throw malformed("/@key", "\(storedKey) is not sha256(source_sha256 + \"\\n\" + fingerprint) = \(key)")
            }
        } catch let error as HDF5Error {
            throw FeatureCacheError.hdf5(error)
        }
    }

    /// Throws unless the root attributes name this format and version.
    ///
    /// - Throws: ``FeatureCacheError/notACacheEntry(file:format:)`` or
    ///   ``FeatureCacheError/unsupportedFormatVersion(file:found:)``.
    /// The entry's `metadata` attribute, empty when it has none.
    /// - Throws: ``FeatureCacheError/malformedEntry(file:object:reason:)`` for `/@metadata` when
    ///   it is not a JSON object of strings.
    static func metadata(in attributes: HDF5Attributes, file: String) throws -> [String: String] {
        guard try attributes.contains("metadata") else { return [:] }
        guard let metadata = parseMetadata(try attributes.string("metadata")) else {
            throw FeatureCacheError.malformedEntry(file: file, object: "/@metadata", reason: "not a JSON object of strings")
        }
        return metadata
    }

    static func checkFormat(_ attributes: HDF5Attributes, file: String) throws {
        let format = try attributes.contains("format") ? try attributes.string("format") : ""
        guard format == Self.format else { throw FeatureCacheError.notACacheEntry(file: file, format: format) }
        let version = try attributes.int64("format_version")
        guard version == Self.formatVersion else {
            throw FeatureCacheError.unsupportedFormatVersion(file: file, found: version)
        }
    }

    /// The `/sequences` group and its number of sequences, checked against `/@sequence_count`.
    ///
    /// - Throws: ``FeatureCacheError/malformedEntry(file:object:reason:)`` unless the group holds
    ///   exactly the groups `000000` ..< count.
    static func sequencesGroup(of root: HDF5Group, file: String) throws -> (group: HDF5Group, count: Int) {
        let count = try root.attributes.int64("sequence_count")
        let group = try root.openGroup("sequences")
        let names = try group.childNames()
        guard count >= 0, names == (0..<Int(count)).map(Self.sequenceGroupName).sorted() else {
            throw FeatureCacheError.malformedEntry(
                file: file, object: "/sequences", reason: "expected \(count) groups 000000...; found \(names.count)")
        }
        return (group, Int(count))
    }

    /// Reads the sequence stored in one group of `/sequences`, checking its shapes.
    ///
    /// - Parameters:
    ///   - group: The sequence's group (`/sequences/000042`).
    ///   - file: The entry's path, for errors.
    /// - Returns: The labelled sequence with its keypoints `[T, C, J]` and timestamps `[T]`.
    /// - Throws: ``FeatureCacheError/malformedEntry(file:object:reason:)`` for a wrong shape or
    ///   a keypoint or timestamp that is not finite, ``HDF5Error`` if reading fails.
    static func readSequence(in group: HDF5Group, file: String) throws -> LabeledSequence {
        let keypoints = try group.openDataset("keypoints").read(Float.self)
        let timestamps = try group.openDataset("timestamps").read(Double.self)
        guard keypoints.shape.count == 3 else {
            throw FeatureCacheError.malformedEntry(
                file: file, object: "\(group.path)/keypoints", reason: "shape \(keypoints.shape) is not [T, C, J]")
        }
        let frames = keypoints.shape[0]
        guard timestamps.shape == [frames] else {
            throw FeatureCacheError.malformedEntry(
                file: file, object: "\(group.path)/timestamps", reason: "shape \(timestamps.shape) is not [\(frames)]")
        }
        guard keypoints.values.count == keypoints.shape.reduce(1, *) else {
            throw FeatureCacheError.malformedEntry(
                file: file, object: "\(group.path)/keypoints", reason: "\(keypoints.values.count) values for shape \(keypoints.shape)")
        }
        let pose = PoseSequence(
            keypoints: keypoints.values, timestamps: timestamps.values, channelCount: keypoints.shape[1],
            jointCount: keypoints.shape[2], frameRate: try group.attributes.double("frame_rate"))
        if let problem = nonFiniteProblem(pose) {
            throw FeatureCacheError.malformedEntry(file: file, object: group.path + (problem.dataset.hasPrefix("@") ? "" : "/") + problem.dataset, reason: problem.reason)
        }
        return LabeledSequence(
            id: try group.attributes.string("id"), label: try group.attributes.string("label"),
            group: try group.attributes.string("group"), sequence: pose)
    }

    /// Throws unless `sequence`'s keypoint count is `T * C * J` with non-negative `C` and `J` and
    /// every keypoint, timestamp and the frame rate are finite.
    static func validate(_ sequence: LabeledSequence) throws {
        let pose = sequence.sequence
        guard pose.channelCount >= 0, pose.jointCount >= 0,
            pose.keypoints.count == pose.frameCount * pose.channelCount * pose.jointCount
        else {
            throw FeatureCacheError.invalidSequence(
                id: sequence.id,
                reason: "\(pose.keypoints.count) keypoint values for [T, C, J] = [\(pose.frameCount), \(pose.channelCount), \(pose.jointCount)]")
        }
        if let problem = nonFiniteProblem(pose) {
            throw FeatureCacheError.invalidSequence(id: sequence.id, reason: problem.reason)
        }
    }

    /// The first keypoint or timestamp that is NaN or infinite, or a frame rate that is not a
    /// positive finite number, as the dataset it is in and a sentence; nil if there is none.
    static func nonFiniteProblem(_ pose: PoseSequence) -> (dataset: String, reason: String)? {
        if let (frame, channel, joint) = pose.firstNonFiniteValue() {
            let value = pose[frame, channel, joint]
            return ("keypoints", "keypoint [frame \(frame), channel \(channel), joint \(joint)] is \(value), not a finite number")
        }
        if let frame = pose.timestamps.firstIndex(where: { !$0.isFinite }) {
            return ("timestamps", "timestamp of frame \(frame) is \(pose.timestamps[frame]), not a finite number")
        }
        guard pose.frameRate.isFinite, pose.frameRate > 0 else {
            return ("@frame_rate", "frame rate \(pose.frameRate) is not a positive finite number")
        }
        return nil
    }

    /// `metadata` as canonical JSON text (sorted keys).
    static func metadataText(_ metadata: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(metadata) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses the `metadata` attribute; nil unless it is a JSON object of strings.
    static func parseMetadata(_ text: String) -> [String: String]? {
        try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }

    /// RFC 3339 in UTC to the second (`2026-12-02T13:56:00Z`); a value-type format style, since
    /// making an `ISO8601DateFormatter` per entry was 11 % of an unchanged run's time.
    static func formatDate(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func parseDate(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
