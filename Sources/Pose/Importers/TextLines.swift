import Foundation

/// The lines of a text file as slices of its UTF-8 bytes, with 1-based line numbers.
///
/// Importers parse bytes rather than `String`s so that a file is read once and split without
/// per-character overhead. Lines end at `\n`; a trailing `\r` (Windows line ends) and a leading
/// UTF-8 byte order mark are removed.
struct TextLines: Sequence {
    /// The file's path, for error messages.
    let path: String
    /// The file's bytes without a byte order mark.
    let bytes: ArraySlice<UInt8>

    /// Reads the file at `url`.
    /// - Throws: ``ImportError`` `.unreadable` with the system's message.
    init(contentsOf url: URL) throws {
        path = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImportError(path: url.path, line: nil, kind: .unreadable(reason: error.localizedDescription))
        }
        let all = [UInt8](data)
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        bytes = all.starts(with: byteOrderMark) ? all.dropFirst(byteOrderMark.count) : all[...]
    }

    func makeIterator() -> Iterator { Iterator(remaining: bytes) }

    /// Yields each line (without its line end) with its 1-based number.
    struct Iterator: IteratorProtocol {
        var remaining: ArraySlice<UInt8>
        var number = 0

        mutating func next() -> (number: Int, text: ArraySlice<UInt8>)? {
            guard !remaining.isEmpty else { return nil }
            number += 1
            var line: ArraySlice<UInt8>
            if let end = remaining.firstIndex(of: ASCII.newline) {
                line = remaining[..<end]
                remaining = remaining[(end + 1)...]
            } else {
                line = remaining
                remaining = remaining[remaining.endIndex...]
            }
            if line.last == ASCII.carriageReturn { line = line.dropLast() }
            return (number, line)
        }
    }
}
