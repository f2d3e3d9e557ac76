/// Anything that declares an option: lets a ``CommandSpecification`` list ``CommandOption``s of
/// different value types.
protocol DeclaredOption: Sendable {
    /// The option's name, value name, kind and help.
    var declaration: OptionDeclaration { get }
}
