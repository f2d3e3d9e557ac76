/// One option of a subcommand as the parser and the help see it: name, value name, kind, help.
///
/// A subcommand declares each option once, as a typed ``CommandOption``; this is that
/// declaration without the value's Swift type, so that a ``CommandSpecification`` can list
/// options of different types.
struct OptionDeclaration: Sendable, Hashable {
    /// The long name without the leading dashes: `output` for `--output`.
    let name: String
    /// The placeholder of the value in the usage (`DIR`), or nil for a flag.
    let valueName: String?
    /// How the value is read.
    let kind: OptionKind
    /// One paragraph of help: what the option does and its default.
    let help: String
    /// Whether the command fails without it; the usage then shows it without brackets.
    let isRequired: Bool
    /// Whether it may be given several times, each value kept (`--sbatch-arg A --sbatch-arg B`);
    /// otherwise the last one given counts.
    var isRepeatable = false

    /// The option as typed: `--output`.
    var spelling: String { "--" + name }

    /// The option with its value placeholder: `--output DIR`, or `--data` for a flag.
    var synopsis: String { valueName.map { "\(spelling) \($0)" } ?? spelling }

    /// The option in a command's usage line: `[--output DIR]`, or `--output DIR` if required.
    var usage: String { (isRequired ? synopsis : "[\(synopsis)]") + (isRepeatable ? "..." : "") }

    /// The usage error when a required option is absent: `missing --output DIR, <help>`.
    var missingMessage: String { "missing \(synopsis), \(help)" }

    /// The usage error for `text`, a value this option's kind does not accept.
    func invalidValueMessage(_ text: String) -> String {
        switch kind {
        case .positiveInteger:
            // Digits beyond Int's range are a number too large, not a wrong kind of value.
            !text.isEmpty && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) && Int(text) == nil
                ? "\(spelling) takes a whole number of at least 1 and at most \(Int.max), found '\(text)', which is too large"
                : "\(spelling) takes a whole number of at least 1, found '\(text)'"
        case .number: "\(spelling) needs a number, got '\(text)'"
        case .flag, .text, .commaList: "\(spelling) does not take '\(text)'"
        }
    }
}
