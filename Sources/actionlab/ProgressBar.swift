/// A text progress bar: `#` for the done part, `-` for the rest.
enum ProgressBar {
    /// `fraction` (clamped to 0…1) of `width` characters filled.
    static func text(fraction: Double, width: Int) -> String {
        let filled = Int((min(1, max(0, fraction.isFinite ? fraction : 0)) * Double(width)).rounded(.down))
        return String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    }
}
