import AtomicFiles
import Foundation

/// The lines of a text file as slices of its UTF-8 bytes, with 1-based line numbers.
///
/// Importers parse bytes rather than `String`s so that a file is read once and split without
/// per-character overhead. Lines end at `\n` (Unix), `\r\n` (Windows) or a lone `\r` (classic
/// Mac OS, and some exporters); a leading UTF-8 byte order mark is removed, and a UTF-16 or
/// UTF-32 one is an error (the file is not UTF-8).
struct TextLines: Sequence {
    /// The file's path, for error messages.
    let path: String
    /// The file's bytes without a byte order mark.
    let bytes: ArraySlice<UInt8>

    /// Reads the file at `url`.
    /// - Throws: ``ImportError`` `.unreadable` with the system's message, or for a UTF-16 or
    ///   UTF-32 byte order mark.
    init(contentsOf url: URL) throws {
        path = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImportError(path: url.path, line: nil, kind: .unreadable(reason: FileErrorReason.of(error)))
        }
        let all = [UInt8](data)
        for (marks, encoding) in [([0x00, 0x00, 0xFE, 0xFF], "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"),
                                  ([0xFE, 0xFF], "UTF-16"), ([0xFF, 0xFE], "UTF-16")] as [([UInt8], String)] where all.starts(with: marks) {
            throw ImportError(
                path: url.path, line: 1,
                kind: .unreadable(reason: "the file starts with a \(encoding) byte order mark; save it as UTF-8 text"))
        }
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
            guard let end = remaining.firstIndex(where: { $0 == ASCII.newline || $0 == ASCII.carriageReturn }) else {
                defer { remaining = remaining[remaining.endIndex...] }
                return (number, remaining)
            }
            let line = remaining[..<end]
            var next = remaining.index(after: end)
            if remaining[end] == ASCII.carriageReturn, next < remaining.endIndex, remaining[next] == ASCII.newline {
                next = remaining.index(after: next)
            }
            remaining = remaining[next...]
            return (number, line)
        }
    }
}
