import AtomicFiles
import Foundation
import Testing

@Suite struct ProcessLivenessTests {
    /// This process is running; an exited child that nobody has collected (a zombie) has ended,
    /// and so has a process id that no process has.
    @Test func runningZombieAndMissingProcesses() throws {
        #expect(!ProcessLiveness.hasEnded(getpid()))

        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { arguments.forEach { free($0) } }
        let status = posix_spawn(&child, "/bin/true", nil, nil, arguments, nil)
        try #require(status == 0, "posix_spawn failed: \(status)")
        // Not collected with waitpid yet: once it has exited, it is a zombie.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !ProcessLiveness.hasEnded(child) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(ProcessLiveness.hasEnded(child))
        #expect(kill(child, 0) == 0, "the zombie still has its process id until it is collected")
        var exitStatus: Int32 = 0
        #expect(waitpid(child, &exitStatus, 0) == child)
        #expect(ProcessLiveness.hasEnded(child))

        let pidMax = (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 32_768
        #expect(ProcessLiveness.hasEnded(pidMax), "pid_max itself is never a process id")
    }
}
