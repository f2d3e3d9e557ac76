import Foundation

/// Which files video sources read, and Create ML's labeled-files naming rule.
public enum MediaFiles {
    /// Extensions (lowercase, without the dot) of the videos read from folders.
    public static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "avi", "mkv", "webm", "mpg", "mpeg", "wmv", "flv", "3gp"]
    /// Extensions (lowercase, without the dot) of the still pictures read from folders, each a one-frame input.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "bmp", "tif", "tiff", "webp"]

    /// Whether `url` names a video or a picture, by its extension (case-insensitive).
    public static func isMedia(_ url: URL) -> Bool {
        let pathExtension = url.pathExtension.lowercased()
        return videoExtensions.contains(pathExtension) || imageExtensions.contains(pathExtension)
    }

    /// Whether `url` names a still picture, by its extension.
    public static func isImage(_ url: URL) -> Bool {
        imageExtensions.contains(url.pathExtension.lowercased())
    }

    /// The label of a file in Create ML's labeled-files layout: the name without its extension
    /// and without a trailing number and the separators before it.
    ///
    /// `squat.3.mov` → `squat`, `jumping_jacks-12.mp4` → `jumping_jacks`, `wave 2.mov` → `wave`,
    /// `bow.mov` → `bow`. Separators are `.`, `_`, `-` and spaces.
    /// - Returns: The label, or nil when nothing is left (a file named `12.mov`).
    public static func label(ofLabeledFile url: URL) -> String? {
        var name = Substring(url.deletingPathExtension().lastPathComponent)
        let separators: Set<Character> = [".", "_", "-", " "]
        while let last = name.last, last.isNumber || separators.contains(last) {
            name = name.dropLast()
        }
        return name.isEmpty ? nil : String(name)
    }
}
