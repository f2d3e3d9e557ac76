import Foundation

/// The instruction-set flags Linux reports for the CPU in `/proc/cpuinfo`.
public enum CPUFlags {
    /// The flags of the first processor in `cpuinfo`'s text (its `flags` line, split on
    /// spaces), or nil if the text has no such line (not x86, or not Linux's format).
    ///
    /// - Parameter cpuinfo: The text of `/proc/cpuinfo`.
    public static func parse(cpuinfo: String) -> Set<String>? {
        for line in cpuinfo.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":"),
                  line[..<colon].trimmingCharacters(in: .whitespaces) == "flags" else { continue }
            return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
        }
        return nil
    }

    /// The flags of this machine's CPU, or nil where `/proc/cpuinfo` cannot be read or has no
    /// `flags` line (macOS, or a CPU other than x86).
    public static var current: Set<String>? {
        #if arch(x86_64) && os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        return parse(cpuinfo: text)
        #else
        return nil
        #endif
    }
}
