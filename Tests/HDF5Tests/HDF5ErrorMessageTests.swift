import ActionLabTestSupport
import Foundation
@testable import HDF5
import Testing

/// Issue 15, item 15: HDF5's error stacks (1-2 KB, one record per layer) become one line that
/// keeps the API function, the innermost explanation and, through ``HDF5Error``, file and object.
@Suite struct HDF5ErrorMessageTests {
    /// The stack libhdf5 1.10.8 gave for `H5Dwrite` on a full disk (records abridged to 4 of 9).
    static let diskFullStack = [
        HDF5ErrorStack.Record(function: "H5Dwrite", description: "can't write data", minor: "Write failed"),
        HDF5ErrorStack.Record(function: "H5D__write", description: "can't write data", minor: "Write failed"),
        HDF5ErrorStack.Record(function: "H5F_block_write", description: "write through page buffer failed", minor: "Write failed"),
        HDF5ErrorStack.Record(
            function: "H5FD_sec2_write",
            description: "file write failed: time = Wed Dec  2 05:49:12 2026\n, filename = '/tmp/full/out/.weights.h5.tmp', "
                + "file descriptor = 3, errno = 28, error message = 'No space left on device', buf = 0x55fb4b857b50, "
                + "total write size = 145408, bytes this sub-write = 145408, bytes actually written = 18446744073709551615, offset = 0",
            minor: "Write failed"),
    ]

    @Test func diskFullStackBecomesOneLineWithTheSystemMessage() {
        #expect(HDF5ErrorStack.condense(Self.diskFullStack)
            == "H5Dwrite(): H5FD_sec2_write(): file write failed: No space left on device (errno 28)")
        let error = HDF5Error(
            kind: .writeFailed, filePath: "/tmp/full/out/.weights.h5.tmp", objectPath: "/model/hidden.weight",
            hdf5Message: HDF5ErrorStack.condense(Self.diskFullStack))
        #expect(error.description == "HDF5 error: write failed in '/tmp/full/out/.weights.h5.tmp' at '/model/hidden.weight': "
            + "H5Dwrite(): H5FD_sec2_write(): file write failed: No space left on device (errno 28)")
    }

    @Test func oneRecordKeepsItsMinorMessage() {
        #expect(HDF5ErrorStack.condense([HDF5ErrorStack.Record(function: "H5Fopen", description: "unable to open file", minor: "file open failed")])
            == "H5Fopen(): unable to open file (file open failed)")
        #expect(HDF5ErrorStack.condense([]) == "")
    }

    @Test func realFailureIsOneShortLine() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("garbage.h5")
        try Data(repeating: 7, count: 4_096).write(to: url)
        let error = try #require(throws: HDF5Error.self) { try HDF5File.open(at: url) }
        #expect(!error.description.contains("\n") && error.description.count < 300, "\(error.description)")
        #expect(error.description.contains(url.path) && error.hdf5Message.hasPrefix("H5Fopen(): "), "\(error.description)")
        #expect(error.hdf5Message.contains("signature"), "\(error.description)")
    }
}
