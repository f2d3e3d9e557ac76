/// Command-line handling shared by the benchmark executables (`pose-benchmark`,
/// `training-benchmark`): `--name value` pairs and positive whole numbers.

/// A wrong benchmark command line; printed with the usage text, exit status 2.
public struct BenchmarkUsageError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// Runs `body` and returns its result; an error it throws becomes a ``BenchmarkUsageError`` with
/// the same description (for a setting read from the environment, such as
/// `ACTIONLAB_WAIT_POLICY`, whose own error type this module does not know).
/// - Throws: ``BenchmarkUsageError`` describing what `body` threw.
public func asUsageError<R>(_ body: () throws -> R) throws -> R {
    do {
        return try body()
    } catch {
        throw BenchmarkUsageError(description: "\(error)")
    }
}

/// The `--name value` pairs of `arguments`, by name without the dashes.
/// - Throws: ``BenchmarkUsageError`` for an argument that is not `--name` followed by a value.
public func benchmarkOptions(_ arguments: ArraySlice<String>) throws -> [String: String] {
    var options: [String: String] = [:]
    var remaining = arguments
    while let name = remaining.popFirst() {
        guard name.hasPrefix("--"), let value = remaining.popFirst() else {
            throw BenchmarkUsageError(description: "expected --name value, found '\(name)'")
        }
        options[String(name.dropFirst(2))] = value
    }
    return options
}

/// The positive whole number given as `--name`, or `defaultValue` when absent.
/// - Throws: ``BenchmarkUsageError`` if the value is not a positive whole number, or the option
///   is absent and has no default.
public func positiveInteger(_ options: [String: String], _ name: String, default defaultValue: Int? = nil) throws -> Int {
    guard let text = options[name] else {
        guard let defaultValue else { throw BenchmarkUsageError(description: "missing --\(name)") }
        return defaultValue
    }
    guard let value = Int(text), value > 0 else {
        throw BenchmarkUsageError(description: "--\(name) must be a positive whole number")
    }
    return value
}
