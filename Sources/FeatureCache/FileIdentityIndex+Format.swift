import ContentHashing
import Foundation

/// The index file's layout, version 1 (all integers little-endian):
///
/// ```
/// magic     26 bytes  "actionlab-file-identities\n"
/// version   UInt32    1
/// count     UInt64    number of records
/// checksum  32 bytes  SHA-256 of every other byte of the file (the fields before it and the records)
/// count records, sorted by path:
///   path length UInt32, path (UTF-8, absolute), size Int64, st_mtim Int64 ns, st_ctim Int64 ns,
///   inode UInt64, device UInt64, hashed-at Int64 ns (CLOCK_REALTIME), SHA-256 of the file 32 bytes
/// ```
///
/// The same records always give the same bytes.
extension FileIdentityIndex {
    static let magic = Array("actionlab-file-identities\n".utf8)
    static let formatVersion: UInt32 = 1
    /// The longest path a record may hold, in bytes (Linux's `PATH_MAX`).
    static let maximumPathLength = 4_096

    /// The file's bytes for `records`.
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    static func encode(_ records: [String: Record]) throws -> Data {
        var body: [UInt8] = []
        body.reserveCapacity(records.count * 160)
        func append<Integer: FixedWidthInteger>(_ value: Integer) {
            withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) }
        }
        for (path, record) in records.sorted(by: { $0.key < $1.key }) {
            let utf8 = Array(path.utf8)
            append(UInt32(utf8.count))
            body += utf8
            append(record.identity.size)
            append(record.identity.modified)
            append(record.identity.changed)
            append(record.identity.inode)
            append(record.identity.device)
            append(record.hashedAt)
            record.hash.appendDigest(to: &body)
        }
        var header = magic
        withUnsafeBytes(of: formatVersion.littleEndian) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(records.count).littleEndian) { header.append(contentsOf: $0) }
        let sum = try checksum(of: header[...], body[...])
        return Data(header + sum + body)
    }

    /// The records of an index file's bytes, after checking its magic, version, checksum and
    /// every record's bounds.
    /// - Throws: ``FileIdentityIndexError`` naming `file`, the offset and what is wrong.
    static func decode(_ data: Data, file: String) throws -> [String: Record] {
        let bytes = [UInt8](data)
        var offset = 0
        func fail(_ reason: String) -> FileIdentityIndexError { FileIdentityIndexError(file: file, offset: offset, reason: reason) }
        func take(_ count: Int, _ field: String) throws -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count - offset >= count else {
                throw fail("file ends inside \(field) (\(bytes.count) bytes)")
            }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        func integer<Integer: FixedWidthInteger>(_: Integer.Type, _ field: String) throws -> Integer {
            let slice = try take(MemoryLayout<Integer>.size, field)
            return slice.reversed().reduce(Integer.zero) { $0 << 8 | Integer($1) }
        }
        guard Array(try take(magic.count, "the magic")) == magic else { offset = 0; throw fail("not a file-identity index") }
        let version = try integer(UInt32.self, "the version")
        guard version == formatVersion else { throw fail("format version \(version); this build reads \(formatVersion)") }
        let count = try integer(UInt64.self, "the record count")
        let headerEnd = offset
        let stored = Array(try take(32, "the checksum"))
        let computed = try checksum(of: bytes[..<headerEnd], bytes[offset...])
        guard stored == computed else { throw fail("checksum mismatch: the index is damaged") }
        // The smallest record is 84 bytes: a count larger than the file allows is damage, not a reservation.
        guard count <= UInt64(bytes.count - offset) / 84 else { throw fail("record count \(count) exceeds the file") }
        var records: [String: Record] = [:]
        records.reserveCapacity(Int(count))
        for _ in 0..<count {
            let length = Int(try integer(UInt32.self, "a path length"))
            guard (1...maximumPathLength).contains(length) else { throw fail("path length \(length) outside 1...\(maximumPathLength)") }
            let path = String(decoding: try take(length, "a path"), as: UTF8.self)
            guard path.hasPrefix("/"), records[path] == nil else { throw fail("path '\(path)' is not absolute or repeats") }
            let size = try integer(Int64.self, "a size"), modified = try integer(Int64.self, "a modification time")
            let changed = try integer(Int64.self, "a status-change time"), inode = try integer(UInt64.self, "an inode")
            let device = try integer(UInt64.self, "a device"), hashedAt = try integer(Int64.self, "a hashing time")
            guard size >= 0 else { throw fail("negative size \(size) for '\(path)'") }
            let hash = ContentHash(digest: try take(32, "a content hash"))
            records[path] = Record(
                identity: FileIdentity(device: device, inode: inode, size: size, modified: modified, changed: changed),
                hashedAt: hashedAt, hash: hash)
        }
        guard offset == bytes.count else { throw fail("\(bytes.count - offset) bytes after the last record") }
        return records
    }

    /// SHA-256 of `header` followed by `body`, as 32 bytes.
    private static func checksum(of header: ArraySlice<UInt8>, _ body: ArraySlice<UInt8>) throws -> [UInt8] {
        let hasher = try SHA256Hasher()
        try header.withUnsafeBytes { try hasher.update($0) }
        try body.withUnsafeBytes { try hasher.update($0) }
        return try hasher.finalize().digestBytes
    }
}
