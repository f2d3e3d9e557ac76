import AtomicFiles
import ContentHashing
import Foundation

/// The checksum header of a cache entry: the HDF5 user block that holds the SHA-256 of the rest
/// of the file, so that an entry is verified before libhdf5 parses any of it.
///
/// An entry file is a 512-byte HDF5 user block followed by the HDF5 image (superblock first).
/// HDF5 skips the user block (it is the format's place for application data), so any HDF5
/// reader opens the file as usual. The block holds ASCII text padded with NUL bytes:
///
/// ```
/// actionlab-feature-cache checksum 1
/// sha256 <64 lowercase hex digits of the SHA-256 of bytes 512 ..< end>
/// bytes <number of bytes after the user block>
/// ```
///
/// A file that starts with the HDF5 signature instead was written before entries carried a
/// checksum (see ``FeatureCacheError/unverifiedEntry(file:)``).
enum EntryChecksum {
    /// The user block's size in bytes: HDF5's smallest (a power of two, at least 512).
    static let headerSize = 512
    /// The first line of the header.
    static let magic = "actionlab-feature-cache checksum 1"
    /// The 8-byte signature that starts an HDF5 superblock (HDF5 file format specification, II.A).
    static let hdf5Signature: [UInt8] = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]

    /// The header for `image`, the HDF5 image that follows it.
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    static func header(for image: Data) throws -> Data {
        let text = "\(magic)\nsha256 \(try ContentHash.sha256(of: image).hexDigest)\nbytes \(image.count)\n"
        var header = Data(text.utf8)
        header.append(Data(count: headerSize - header.count))
        return header
    }

    /// Checks the file at `url` against its header, reading it in 1 MiB chunks, before anything
    /// parses it as HDF5.
    /// - Throws: ``FeatureCacheError/unverifiedEntry(file:)`` for a file without a header (one
    ///   written before checksums), ``FeatureCacheError/damagedEntry(file:reason:)`` for an
    ///   unreadable header, a length or SHA-256 that differs from the header's, or a file that
    ///   cannot be read.
    static func verify(fileAt url: URL) throws {
        let path = url.path
        func damaged(_ reason: String) -> FeatureCacheError { .damagedEntry(file: path, reason: reason) }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw damaged("cannot be opened: \(FileErrorReason.of(error))")
        }
        defer { try? handle.close() }
        func read(_ count: Int) throws -> Data {
            do {
                return try handle.read(upToCount: count) ?? Data()
            } catch {
                throw damaged("cannot be read: \(FileErrorReason.of(error))")
            }
        }
        let header = try read(headerSize)
        if header.starts(with: hdf5Signature) { throw FeatureCacheError.unverifiedEntry(file: path) }
        guard header.count == headerSize else {
            throw damaged("\(header.count) bytes, shorter than the \(headerSize)-byte checksum header")
        }
        guard let (digest, length) = parse(header) else {
            throw damaged("the checksum header (the first \(headerSize) bytes) is not '\(magic)' with a SHA-256 and a length")
        }
        let hasher = try SHA256Hasher()
        var total = 0
        while true {
            let chunk = try read(1 << 20)
            guard !chunk.isEmpty else { break }
            total += chunk.count
            guard total <= length else { break }
            try chunk.withUnsafeBytes { try hasher.update($0) }
        }
        guard total == length else {
            let found = total > length ? "more than \(length)" : "\(total)"
            throw damaged("\(found) bytes follow the checksum header, which says \(length): the file was truncated or extended")
        }
        guard try hasher.finalize().hexDigest == digest else {
            throw damaged("SHA-256 of its \(length) bytes differs from the one in its checksum header: the file changed after it was written")
        }
    }

    /// The digest and length of a header, or nil unless it is exactly the format above.
    static func parse(_ header: Data) -> (digest: String, length: Int)? {
        let text = header.prefix { $0 != 0 }
        guard header.dropFirst(text.count).allSatisfy({ $0 == 0 }),
            let lines = String(data: text, encoding: .utf8)?.split(separator: "\n", omittingEmptySubsequences: false),
            lines.count == 4, lines[0] == magic, lines[3].isEmpty,
            lines[1].hasPrefix("sha256 "), lines[2].hasPrefix("bytes ")
        else { return nil }
        let digest = String(lines[1].dropFirst("sha256 ".count))
        guard ContentHash.isHexDigest(digest), let length = Int(lines[2].dropFirst("bytes ".count)), length >= 0 else {
            return nil
        }
        return (digest, length)
    }
}

extension EntryChecksum {
    /// Rewrites the checksum header of the file at `url` for its current contents; a file that
    /// starts with the HDF5 signature (no header) gets one in front.
    ///
    /// For tests that edit an entry's HDF5 in place and need it to pass the checksum so that the
    /// validation behind it is reached. The cache itself never stamps a file it did not write.
    /// - Throws: Foundation's error if the file cannot be read or written.
    static func stamp(fileAt url: URL) throws {
        let data = try Data(contentsOf: url)
        let image = data.starts(with: hdf5Signature) ? data : data.dropFirst(headerSize)
        var stamped = try header(for: Data(image))
        stamped.append(image)
        try stamped.write(to: url)
    }
}
