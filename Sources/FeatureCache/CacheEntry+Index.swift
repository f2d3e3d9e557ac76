import ContentHashing
import Foundation
import HDF5
import Pose

extension CacheEntry {
    /// Reads an entry's key and a description of each of its sequences, without their keypoints.
    ///
    /// Verifies the file's checksum header first, as ``init(contentsOf:)`` does, so a damaged
    /// keypoint or chunk is found here although the keypoints are not read; then checks what
    /// ``init(contentsOf:)`` checks except the keypoint values themselves: the format
    /// and version, that the stored key matches the source hash and fingerprint, the sequence
    /// groups, and the shapes of every `keypoints` (`[T, C, J]`) and `timestamps` (`[T]`)
    /// dataset. Reads the timestamps (8 bytes a frame) for their first and last values.
    ///
    /// - Parameter url: The entry's file.
    /// - Returns: The entry's key, its sequences in stored order, and its ``metadata``.
    /// - Throws: The errors of ``init(contentsOf:)``.
    public static func index(contentsOf url: URL) throws -> (key: CacheKey, sequences: [CachedSequence], metadata: [String: String]) {
        let path = url.path
        try EntryChecksum.verify(fileAt: url)
        do {
            let file = try HDF5File.open(at: url, mode: .readOnly)
            defer { try? file.close() }
            let root = try file.root()
            let attributes = root.attributes
            try checkFormat(attributes, file: path)
            let storedKey = try attributes.string("key")
            let key: CacheKey
            do {
                key = try CacheKey(
                    source: ContentHash(hexDigest: attributes.string("source_sha256")),
                    fingerprint: attributes.string("fingerprint"))
            } catch is ContentHashError {
                throw FeatureCacheError.malformedEntry(file: path, object: "/@source_sha256", reason: "not a SHA-256 hex digest")
            }
            guard key.hexDigest == storedKey else {
                throw FeatureCacheError.malformedEntry(
                    file: path, object: "/@key", reason: "\(storedKey) is not sha256(source_sha256 + \"\\n\" + fingerprint) = \(key)")
            }
            let (sequencesGroup, count) = try sequencesGroup(of: root, file: path)
            var sequences: [CachedSequence] = []
            sequences.reserveCapacity(count)
            for index in 0..<count {
                let group = try sequencesGroup.openGroup(sequenceGroupName(index))
                let shape = try group.openDataset("keypoints").shape()
                guard shape.count == 3 else {
                    throw FeatureCacheError.malformedEntry(
                        file: path, object: "\(group.path)/keypoints", reason: "shape \(shape) is not [T, C, J]")
                }
                let timestamps = try group.openDataset("timestamps").read(Double.self)
                guard timestamps.shape == [shape[0]] else {
                    throw FeatureCacheError.malformedEntry(
                        file: path, object: "\(group.path)/timestamps", reason: "shape \(timestamps.shape) is not [\(shape[0])]")
                }
                let sequenceAttributes = group.attributes
                sequences.append(CachedSequence(
                    entry: url, index: index, id: try sequenceAttributes.string("id"),
                    label: try sequenceAttributes.string("label"), group: try sequenceAttributes.string("group"),
                    frameCount: shape[0], channelCount: shape[1], jointCount: shape[2],
                    frameRate: try sequenceAttributes.double("frame_rate"),
                    firstTimestamp: timestamps.values.first ?? 0, lastTimestamp: timestamps.values.last ?? 0))
            }
            return (key, sequences, try metadata(in: attributes, file: path))
        } catch let error as HDF5Error {
            throw FeatureCacheError.hdf5(error)
        }
    }
}
