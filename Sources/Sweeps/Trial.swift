import Manifest

/// One training run of a sweep: a grid cell's configuration with one seed.
public struct Trial: Sendable, Hashable, Codable {
    /// Position in the sweep's trial list (cell-major, then seed), used by `actionlab trial`.
    public var index: Int
    /// The grid cell.
    public var cell: Int
    /// The seed.
    public var seed: Int
    /// The first 12 hex digits of the SHA-256 of the trial's resolved configuration (with
    /// `training.seeds` = `[seed]`, without `features.workers`, which changes no result); names
    /// the trial's folder, so a resumed sweep recognises
    /// finished trials by content, not position.
    public var id: String
    /// The swept values of the cell, `path → canonical JSON text`, in grid order.
    public var values: [SweptValue]
    /// The configuration the trial trains with.
    public var configuration: ExperimentConfiguration

    /// A swept parameter's value.
    public struct SweptValue: Sendable, Hashable, Codable {
        public var path: String
        public var value: String
    }

    /// `windows.duration=2, augmentation="flip"`, or `(base configuration)` without a grid.
    public var label: String {
        values.isEmpty ? "(base configuration)" : values.map { "\($0.path)=\($0.value)" }.joined(separator: ", ")
    }
}
