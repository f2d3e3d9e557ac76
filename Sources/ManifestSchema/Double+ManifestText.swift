import JSON5

extension Double {
    /// The number as a manifest would write it: `30` rather than `30.0`, otherwise the shortest
    /// text that reads back to the same value.
    package var manifestText: String { JSON5Number(self).description }
}
