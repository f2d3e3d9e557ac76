/// Wrong command-line usage: printed with a pointer to the command's help, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
