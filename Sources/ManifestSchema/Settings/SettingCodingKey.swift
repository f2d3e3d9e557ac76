/// The coding key of a declared setting: the manifest key itself.
package struct SettingCodingKey: CodingKey, Hashable {
    package var stringValue: String
    package var intValue: Int? { nil }

    /// The key named `key`.
    package init(_ key: String) {
        stringValue = key
    }

    package init(stringValue: String) {
        self.init(stringValue)
    }

    package init?(intValue: Int) {
        nil
    }
}
