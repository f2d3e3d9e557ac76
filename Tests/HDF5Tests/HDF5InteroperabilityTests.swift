import ActionLabTestSupport
import Foundation
import HDF5
import Testing

/// Files written here are read by h5py, and files h5py writes are read here.
@Suite struct HDF5InteroperabilityTests {
    @Test func h5pyReadsWhatThisModuleWrites() throws {
        guard try PythonOracle.requireH5py() else { return }
        let directory = try TemporaryDirectory()
        let url = directory.file("for-h5py.h5")
        let floats = (0..<24).map { Float($0) * 0.5 - 3 }
        do {
            let file = try HDF5File.create(at: url)
            let root = try file.root()
            try root.attributes.write("hello", named: "greeting")
            try root.attributes.write(Int64(42), named: "answer")
            try root.attributes.write([1.5, 2.5], named: "pair")
            let group = try root.createGroup("data/nested")
            try group.createDataset("floats", values: floats, shape: [2, 3, 4], compression: .gzip)
            try group.createDataset("doubles", values: [0.1, -2.0], shape: [2])
            try group.createDataset("ints", values: [Int64.min, 7], shape: [1, 2])
            try group.createDataset("labels", strings: ["walk", "Käse"])
            try file.close()
        }
        let script = """
            import h5py, json, sys
            with h5py.File(sys.argv[1], "r") as f:
                g = f["data/nested"]
                print(json.dumps({
                    "greeting": f.attrs["greeting"], "answer": int(f.attrs["answer"]),
                    "pair": [float(x) for x in f.attrs["pair"]],
                    "floats_shape": list(g["floats"].shape), "floats_dtype": str(g["floats"].dtype),
                    "floats": [float(x) for x in g["floats"][()].ravel()],
                    "compression": g["floats"].compression,
                    "doubles": [float(x) for x in g["doubles"][()]], "doubles_dtype": str(g["doubles"].dtype),
                    "ints": [int(x) for x in g["ints"][()].ravel()], "ints_shape": list(g["ints"].shape),
                    "labels": [s for s in g["labels"].asstr()[()]],
                }))
            """
        let json = try #require(try PythonOracle.json(script, arguments: [url.path]) as? [String: Any])
        #expect(json["greeting"] as? String == "hello")
        #expect(json["answer"] as? Int == 42)
        #expect(json["pair"] as? [Double] == [1.5, 2.5])
        #expect(json["floats_shape"] as? [Int] == [2, 3, 4])
        #expect(json["floats_dtype"] as? String == "float32")
        #expect((json["floats"] as? [Double])?.map { Float($0) } == floats)
        #expect(json["compression"] as? String == "gzip")
        #expect(json["doubles"] as? [Double] == [0.1, -2.0])
        #expect(json["doubles_dtype"] as? String == "float64")
        #expect((json["ints"] as? [NSNumber])?.map(\.int64Value) == [Int64.min, 7])
        #expect(json["ints_shape"] as? [Int] == [1, 2])
        #expect(json["labels"] as? [String] == ["walk", "Käse"])
    }

    @Test func thisModuleReadsWhatH5pyWrites() throws {
        guard try PythonOracle.requireH5py() else { return }
        let directory = try TemporaryDirectory()
        let url = directory.file("from-h5py.h5")
        let script = """
            import h5py, numpy as np, sys
            with h5py.File(sys.argv[1], "w") as f:
                f.create_dataset("k", data=np.arange(12, dtype="<f4").reshape(3, 4), compression="gzip")
                f.create_dataset("be", data=np.array([1.25, -8.0], dtype=">f8"))
                f.create_dataset("i32", data=np.array([1, 2], dtype="<i4"))
                f.create_dataset("fixed", data=np.array([b"ab", b"cde", b""], dtype="S3"))
                f.create_dataset("vlen", data=["x", "yz"], dtype=h5py.string_dtype())
                f.attrs["name"] = "from h5py"
                f.attrs["fixed_name"] = np.bytes_(b"fixed")
                f.attrs["rate"] = 30.0
                f.attrs["n"] = np.int64(5)
            """
        let result = try PythonOracle.run(script, arguments: [url.path])
        try #require(result.status == 0, "h5py failed: \(result.errorOutput)")
        let root = try HDF5File.open(at: url).root()
        #expect(try root.openDataset("k").read(Float.self) == HDF5Array(values: (0..<12).map(Float.init), shape: [3, 4]))
        #expect(try root.openDataset("be").read(Double.self) == HDF5Array(values: [1.25, -8.0], shape: [2]))
        #expect(throws: HDF5Error(kind: .typeMismatch(expected: .int64, found: .other("integer, 4 bytes, signed")), filePath: url.path, objectPath: "/i32")) {
            try root.openDataset("i32").read(Int64.self)
        }
        #expect(try root.openDataset("fixed").readStrings() == ["ab", "cde", ""])
        #expect(try root.openDataset("vlen").readStrings() == ["x", "yz"])
        #expect(try root.attributes.string("name") == "from h5py")
        #expect(try root.attributes.string("fixed_name") == "fixed")
        #expect(try root.attributes.double("rate") == 30)
        #expect(try root.attributes.int64("n") == 5)
    }
}
