import ContentHashing
import Foundation

/// A folder source's content hash (``ContentHash/sha256(ofFolderAt:fileExtension:)``) and the
/// bytes of the files that were read to compute it, from
/// ``FileIdentityIndex/hashFolder(at:fileExtension:)``.
///
/// An importer of the folder (OpenPose's per-frame JSON files) takes a file's bytes from
/// ``readFiles`` when they are there and reads the file only otherwise, so a first import reads
/// each file once instead of once to hash it and once to import it. A file may change between
/// the hash and the import as it may between two reads; the entry is keyed by the hash either
/// way, and the index records a file only if it did not change while it was read.
public struct HashedFolder: Sendable {
    /// The most bytes of one folder's files that are kept: 64 MiB (about 30,000 OpenPose frame
    /// files of 2 KB); beyond it files are hashed in chunks and not kept.
    public static let keptBytesLimit = 64 << 20
    /// The largest file kept (and read whole to hash it): 16 MiB.
    public static let largestKeptFile: Int64 = 16 << 20

    /// The folder's content hash.
    public let hash: ContentHash
    /// The bytes of the files read to hash them, by file name (not path); files whose hash came
    /// from the index are absent.
    public let readFiles: [String: Data]
}
