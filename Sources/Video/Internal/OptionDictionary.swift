internal import CFFmpeg

/// FFmpeg options for opening a file (`AVDictionary`): the owner of the dictionary.
final class OptionDictionary {
    /// The dictionary; nil while empty. FFmpeg functions that take options may replace it.
    private var dictionary: OpaquePointer?

    /// Creates a dictionary holding `entries` (`av_dict_set`).
    /// - Throws: ``FFmpegFailure`` when an entry cannot be stored (out of memory).
    init(_ entries: KeyValuePairs<String, String>) throws(FFmpegFailure) {
        for (key, value) in entries {
            try FFmpegCall.check(av_dict_set(&dictionary, key, value, 0), "av_dict_set")
        }
    }

    deinit { av_dict_free(&dictionary) }

    /// Runs `body` with the `AVDictionary **` that FFmpeg's `options` parameters take.
    func withUnsafeMutablePointer<Result>(_ body: (UnsafeMutablePointer<OpaquePointer?>) -> Result) -> Result {
        body(&dictionary)
    }
}
