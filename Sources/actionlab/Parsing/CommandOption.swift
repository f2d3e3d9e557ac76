/// An option of a subcommand, declared once: its name, value name, kind and help, and how its
/// value becomes a `Value`.
///
/// The parser, the unknown-option error, `actionlab COMMAND --help` and the general usage all
/// read the same declaration, and the command reads the value back through it
/// (``CommandLineArguments/value(of:)``), so no option name is written twice. In the spirit of
/// swift-argument-parser's `@Option`, without the package.
struct CommandOption<Value: Sendable>: DeclaredOption {
    let declaration: OptionDeclaration
    /// The value of a text given on the command line, or nil if the kind does not accept it.
    private let convert: @Sendable (String) -> Value?

    private init(_ declaration: OptionDeclaration, convert: @escaping @Sendable (String) -> Value?) {
        self.declaration = declaration
        self.convert = convert
    }

    /// The value of `text`.
    /// - Throws: `UsageError` naming the option when its kind does not accept `text`.
    func value(from text: String) throws -> Value {
        guard let value = convert(text) else { throw UsageError(declaration.invalidValueMessage(text)) }
        return value
    }
}

extension CommandOption where Value == Bool {
    /// A flag: an option without a value (`--data`), read with ``CommandLineArguments/isSet(_:)``.
    static func flag(_ name: String, help: String) -> Self {
        Self(OptionDeclaration(name: name, valueName: nil, kind: .flag, help: help, isRequired: false)) { _ in true }
    }
}

extension CommandOption where Value == String {
    /// An option whose value is any text: `--output DIR`.
    /// - Parameter isRequired: Whether the command fails without it; the usage error is then
    ///   `missing --NAME VALUE, HELP`, so `help` reads as a noun phrase.
    static func text(_ name: String, valueName: String, help: String, isRequired: Bool = false) -> Self {
        Self(OptionDeclaration(name: name, valueName: valueName, kind: .text, help: help, isRequired: isRequired)) { $0 }
    }

    /// An option that may be given several times, each value any text, read with
    /// ``CommandLineArguments/values(of:)``: `--sbatch-arg ARG...`.
    static func repeatedText(_ name: String, valueName: String, help: String) -> Self {
        Self(OptionDeclaration(name: name, valueName: valueName, kind: .text, help: help, isRequired: false, isRepeatable: true)) { $0 }
    }

    /// An option whose value is a comma-separated list of names, checked by the command's own
    /// list reader (which knows the names): `--format onnx,safetensors,h5`.
    static func commaList(_ name: String, valueName: String, help: String) -> Self {
        Self(OptionDeclaration(name: name, valueName: valueName, kind: .commaList, help: help, isRequired: false)) { $0 }
    }
}

extension CommandOption where Value == Int {
    /// An option whose value is a whole number of at least 1: `--jobs N`.
    static func positiveInteger(_ name: String, valueName: String, help: String) -> Self {
        Self(OptionDeclaration(name: name, valueName: valueName, kind: .positiveInteger, help: help, isRequired: false)) { text in
            Int(text).flatMap { $0 >= 1 ? $0 : nil }
        }
    }
}

extension CommandOption where Value: LosslessStringConvertible {
    /// An option whose value is a number of type `Value` (`Int`, `UInt64`, `Double`), as Swift
    /// reads it from text: `--frame-rate FPS`.
    static func number(_ name: String, valueName: String, help: String) -> Self {
        Self(OptionDeclaration(name: name, valueName: valueName, kind: .number, help: help, isRequired: false)) { Value($0) }
    }
}
