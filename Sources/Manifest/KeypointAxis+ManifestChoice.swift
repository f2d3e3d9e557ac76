import ManifestSchema
import Pose

/// A source's `axes` entries are `"T"`, `"C"` and `"J"`.
extension KeypointAxis: ManifestChoice {}
