import Foundation
import Manifest

/// One training run of a sweep: a grid cell's configuration with one seed.
public struct Trial: Sendable, Hashable, Codable {
    /// Position in the sweep's trial list (cell-major, then seed), used by `actionlab trial`.
    public var index: Int
    /// The grid cell.
    public var cell: Int
    /// The seed.
    public var seed: Int
    /// The first 12 hex digits of the SHA-256 of the trial's resolved configuration with
    /// `training.seeds` = `[seed]` and without the settings that change no result
    /// (``identityConfiguration(of:)``); names the trial's folder, so a resumed sweep recognises
    /// finished trials by content, not position. A sweep folder keeps the ids it was created
    /// with (``SweepRecord/plan()``).
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

    /// The configuration a trial id hashes: `configuration` without the settings that say where
    /// or how fast, never what, a trial computes (``settingsOutsideIdentity``), so that the same
    /// manifest gets the same ids in another checkout or with another output folder:
    /// - `features.workers`: videos extracted at once; the poses are identical for every value;
    /// - `features.cache`: where cached features live; an entry is keyed by its source's content;
    /// - `output.directory`: where sweep folders are made;
    /// - `description`: free text for reports.
    ///
    /// Data paths stay in: they name the data, and the cache key of their content is recorded in
    /// each trial's `provenance.json`.
    public static func identityConfiguration(of configuration: ExperimentConfiguration) -> ExperimentConfiguration {
        var identity = configuration
        identity.features.workers = nil
        identity.features.cache = URL(fileURLWithPath: "/", isDirectory: true)
        identity.output.directory = URL(fileURLWithPath: "/", isDirectory: true)
        identity.description = ""
        return identity
    }

    /// The dotted paths of the settings ``identityConfiguration(of:)`` leaves out; a sweep grid
    /// cannot sweep them, as every cell would be the same trial.
    public static let settingsOutsideIdentity = ["features.workers", "features.cache", "output.directory", "description"]

    /// `windows.duration=2, augmentation="flip"`, or `(base configuration)` without a grid.
    public var label: String {
        values.isEmpty ? "(base configuration)" : values.map { "\($0.path)=\($0.value)" }.joined(separator: ", ")
    }
}
