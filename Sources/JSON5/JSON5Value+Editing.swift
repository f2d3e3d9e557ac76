extension JSON5Value {
    /// A copy with the member at `keys` (a path of object keys, outermost first) set to `value`,
    /// replacing an existing member in place or appending a new one, and creating missing
    /// intermediate objects. Sweeps use it to apply a grid cell's values to a manifest.
    ///
    /// - Parameters:
    ///   - keys: Object keys from the root, such as `["windows", "duration"]`; must not be empty.
    ///   - value: The new value; it keeps its own source location, so problems with it are
    ///     reported where it was written.
    /// - Returns: The edited copy, or nil if a value on the way is not an object.
    public func setting(_ keys: ArraySlice<String>, to value: JSON5Value) -> JSON5Value? {
        guard let key = keys.first else { return value }
        guard var members = objectMembers else { return nil }
        if let index = members.firstIndex(where: { $0.key == key }) {
            guard let edited = members[index].value.setting(keys.dropFirst(), to: value) else { return nil }
            members[index].value = edited
        } else {
            let empty = JSON5Value(.object([]), at: value.location)
            guard let edited = empty.setting(keys.dropFirst(), to: value) else { return nil }
            members.append(JSON5Member(key: key, keyLocation: value.location, value: edited))
        }
        return JSON5Value(.object(members), at: location)
    }

    /// A copy of this object without the member `key` (unchanged if it has none or is not an object).
    public func removing(_ key: String) -> JSON5Value {
        guard let members = objectMembers else { return self }
        return JSON5Value(.object(members.filter { $0.key != key }), at: location)
    }
}
