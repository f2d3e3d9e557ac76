/// A manifest setting with a fixed set of string values, such as an optimizer or a padding mode.
///
/// Conforming enums get reading, "unknown value" messages listing the allowed values, and
/// "did you mean" suggestions for free from ``ManifestNode/choice(_:)``.
package protocol ManifestChoice: RawRepresentable, CaseIterable where RawValue == String {}
