internal import CFFmpeg

/// FFmpeg options for opening a file or stream (`AVDictionary`): the owner of the dictionary.
final class OptionDictionary {
    /// The dictionary; nil while empty. FFmpeg functions that take options may replace it.
    private var dictionary: OpaquePointer?

    /// Creates a dictionary holding `entries` (`av_dict_set`).
    /// - Throws: ``FFmpegFailure`` when an entry cannot be stored (out of memory).
    init(_ entries: some Sequence<(key: String, value: String)>) throws(FFmpegFailure) {
        for (key, value) in entries {
            try FFmpegCall.check(av_dict_set(&dictionary, key, value, 0), "av_dict_set")
        }
    }

    deinit { av_dict_free(&dictionary) }

    /// The keys still in the dictionary, in FFmpeg's order: after `avformat_open_input`, the
    /// options that neither the demuxer, the protocol nor the format context recognized.
    var keys: [String] {
        var keys: [String] = []
        var entry: UnsafePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            keys.append(String(cString: next.pointee.key))
            entry = UnsafePointer(next)
        }
        return keys
    }

    /// Runs `body` with the `AVDictionary **` that FFmpeg's `options` parameters take.
    func withUnsafeMutablePointer<Result>(_ body: (UnsafeMutablePointer<OpaquePointer?>) -> Result) -> Result {
        body(&dictionary)
    }
}
