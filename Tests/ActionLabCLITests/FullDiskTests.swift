import ActionLabTestSupport
import Foundation
import Testing

/// Issue 15, item 2: `run` on a nearly full file system printed the disk-full error and then
/// crashed in libhdf5 at exit (status 139). It must exit with status 1 and one line per file.
@Suite struct FullDiskTests {
    /// A project with GunPoint's TRAIN file and a manifest whose cache or reports live on `mount`.
    func runGunPoint(cacheOnMount: Bool, mount: TemporaryMount) throws -> CommandLineTool.Result {
        let directory = try TemporaryDirectory(prefix: "actionlab-cli")
        let source = try TestData.file("uea/GunPoint/GunPoint_TRAIN.ts")
        let cache = cacheOnMount ? mount.url.appendingPathComponent("cache").path : "cache"
        let reports = cacheOnMount ? "reports" : mount.url.appendingPathComponent("reports").path
        _ = try writeFixture("""
            {
              name: "full-disk",
              dataset: { sources: [{ format: "uea", path: "\(source.path)" }], validation: { strategy: "none" } },
              features: { layout: "univariate", frameRate: 30, cache: "\(cache)" },
              windows: { duration: 5 },
              model: { kind: "mlp" },
              training: { epochs: 1, seeds: [1] },
              output: { directory: "\(reports)" },
            }
            """, named: "full.json5", in: directory.url)
        return try CommandLineTool.run(["run", "full.json5"], in: directory.url)
    }

    @Test(arguments: [true, false])
    func fullDiskExitsWithStatusOneAndAShortError(cacheOnMount: Bool) throws {
        let mount: TemporaryMount
        do {
            mount = try TemporaryMount(sizeKiB: 2_048)
        } catch {
            try Test.cancel("skipped: \(error)")
        }
        // GunPoint's TRAIN entry takes about 200 KB, its trial folder more than 100 KB.
        try mount.fill(leavingKiB: cacheOnMount ? 64 : 96)
        let result = try runGunPoint(cacheOnMount: cacheOnMount, mount: mount)
        #expect(result.status == 1, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("No space left on device"), "\(result.errorOutput)")
        #expect(!result.errorOutput.contains("crashed") && !result.errorOutput.contains("H5C_"), "\(result.errorOutput)")
        let errorLines = result.errorOutput.split(separator: "\n").filter { $0.contains("No space left on device") }
        #expect(errorLines.allSatisfy { $0.count < 400 }, "\(errorLines)")
    }
}
