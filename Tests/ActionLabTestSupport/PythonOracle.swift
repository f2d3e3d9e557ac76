import Foundation
import Synchronization
import Testing

/// Runs Python scripts that use h5py, the reference HDF5 reader for interoperability tests.
///
/// Uses the interpreter named by `ACTIONLAB_PYTHON`, else `python3` on `PATH`. When h5py cannot be
/// imported the calling test fails with a message saying how to fix it; it never passes silently.
public enum PythonOracle {
    public static var interpreter: String {
        ProcessInfo.processInfo.environment["ACTIONLAB_PYTHON"] ?? "python3"
    }

    public struct Result {
        public var status: Int32
        public var output: String
        public var errorOutput: String
    }

    /// Runs `script` with `arguments` (available as `sys.argv[1...]`) by `interpreter` (default
    /// ``interpreter``; the pose tests pass MediaPipe's reference environment).
    public static func run(_ script: String, arguments: [String] = [], interpreter: String = interpreter) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [interpreter, "-c", script] + arguments
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errorOutput: String(decoding: errorData, as: UTF8.self))
    }

    /// Whether h5py imports; records a test failure explaining how to install it when not.
    public static func requireH5py(sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let result = try importCheck(["h5py", "numpy"], interpreter: interpreter)
        if result.status != 0 {
            Issue.record(
                """
                h5py cannot be imported by '\(interpreter)' (set ACTIONLAB_PYTHON to a Python that \
                has it; scripts/setup installs it for CI): \(result.errorOutput)
                """, sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    /// Whether every module in `modules` imports; records a test failure naming the missing ones
    /// and how to install them when not.
    public static func requireModules(_ modules: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let result = try importCheck(modules, interpreter: interpreter)
        if result.status != 0 {
            Issue.record(
                """
                Python modules \(modules.joined(separator: ", ")) cannot be imported by '\(interpreter)' (run \
                scripts/setup, which installs them into .venv, and set ACTIONLAB_PYTHON=$PWD/.venv/bin/python): \
                \(result.errorOutput)
                """, sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    /// Modules known to import, per interpreter: an import check that passed is not run again in
    /// this test process (importing coremltools or mlflow takes seconds, and the checks run before
    /// every oracle call). A failed check is never cached, so its message is given every time.
    private static let importedModules = Mutex<[String: Set<String>]>([:])

    /// Imports `modules` in `interpreter` unless an earlier check in this process imported them all.
    private static func importCheck(_ modules: [String], interpreter: String) throws -> Result {
        if importedModules.withLock({ $0[interpreter, default: []].isSuperset(of: modules) }) {
            return Result(status: 0, output: "", errorOutput: "")
        }
        let result = try run("import " + modules.joined(separator: ", "), interpreter: interpreter)
        if result.status == 0 {
            importedModules.withLock { $0[interpreter, default: []].formUnion(modules) }
        }
        return result
    }

    /// Runs `script`, records a failure with its stderr if it exits non-zero, and decodes its
    /// stdout as JSON.
    public static func json(
        _ script: String, arguments: [String] = [], interpreter: String = interpreter,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Any? {
        let result = try run(script, arguments: arguments, interpreter: interpreter)
        guard result.status == 0 else {
            Issue.record("Python exited with \(result.status): \(result.errorOutput)", sourceLocation: sourceLocation)
            return nil
        }
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    }
}
