import ActionLabTestSupport
import Foundation
import Reports
import Testing

@Suite struct ProvenanceTests {
    /// What a trial writes reads back whole, with the Slurm array task that ran it (the fact
    /// `status` credits a finished trial to a task by).
    @Test func readsWhatATrialWroteWithItsSlurmTask() throws {
        let scratch = try TemporaryDirectory(prefix: "provenance")
        var written = Provenance.current(seed: 7, data: [], splitMethods: ["validation: 2 of 8 subjects"])
        written.slurm = ["job_id": "80", "array_job_id": "77", "array_task_id": "3", "node": "vm"]
        try JSONEncoder().encode(written).write(to: scratch.url.appendingPathComponent(Provenance.fileName))

        let read = try Provenance.read(inFolder: scratch.url)
        #expect(read.seed == 7)
        #expect(read.splitMethods == ["validation: 2 of 8 subjects"])
        #expect(read.gitCommit == written.gitCommit)
        #expect(read.slurmArrayTask?.jobID == "77")
        #expect(read.slurmArrayTask?.taskID == 3)

        var outside = read
        outside.slurm = nil
        #expect(outside.slurmArrayTask == nil)
        outside.slurm = ["job_id": "80"]  // a job, not an array task
        #expect(outside.slurmArrayTask == nil)
        outside.slurm = ["array_job_id": "77", "array_task_id": "three"]
        #expect(outside.slurmArrayTask == nil)
    }

    /// A missing or damaged file is an error naming it, and for a damaged one the place.
    @Test func aMissingOrDamagedFileIsNamed() throws {
        let scratch = try TemporaryDirectory(prefix: "provenance")
        let url = scratch.url.appendingPathComponent(Provenance.fileName)
        let missing = #expect(throws: ReportError.self) { try Provenance.read(inFolder: scratch.url) }
        guard case let .unreadableReport(path, _) = missing else { Issue.record("\(String(describing: missing))"); return }
        #expect(path == url.path)

        try Data(#"{"actionlab_version": "0.1.0", "seed": "seven"}"#.utf8).write(to: url)
        let damaged = #expect(throws: ReportError.self) { try Provenance.read(inFolder: scratch.url) }
        guard case let .unreadableReport(damagedPath, reason) = damaged else { Issue.record("\(String(describing: damaged))"); return }
        #expect(damagedPath == url.path)
        #expect(reason.contains("1:") && reason.contains("missing key"), "\(reason)")
    }
}
