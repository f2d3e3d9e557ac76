#!/usr/bin/env python3
"""Checks an ActionLab export against the reference implementations.

    check-onnx.py EXPORT_DIR WINDOWS.f32 N T C J EXPECTED.f32 K

EXPORT_DIR holds model.onnx, weights.safetensors and weights.h5; WINDOWS.f32 is N windows
[T, C, J] of little-endian float32 keypoints, EXPECTED.f32 the N x K class probabilities ActionLab's
Evaluator computed for them. Checks that
  (a) onnx.checker.check_model (full_check: shape inference too) accepts model.onnx;
  (b) onnxruntime's labelProbabilities for every window equal EXPECTED within 1e-5;
  (c) safetensors.numpy.load_file reads weights.safetensors, and every tensor equals the one of the
      same name in weights.h5's /model group (and in the ONNX initializers), bit for bit.
Prints a JSON summary on success; exits non-zero with the reason otherwise.
"""
import json
import os
import sys

import h5py
import numpy as np
import onnx
import onnxruntime
import safetensors.numpy

TOLERANCE = 1e-5


def main():
    export, windows_path, n, t, c, j, expected_path, k = sys.argv[1:9]
    n, t, c, j, k = (int(v) for v in (n, t, c, j, k))
    windows = np.fromfile(windows_path, dtype="<f4").reshape(n, t, c, j)
    expected = np.fromfile(expected_path, dtype="<f4").reshape(n, k)

    # (a) the checker, with shape inference
    model_path = os.path.join(export, "model.onnx")
    model = onnx.load(model_path)
    onnx.checker.check_model(model, full_check=True)
    metadata = {p.key: p.value for p in model.metadata_props}
    assert json.loads(metadata["labels"]) and len(json.loads(metadata["labels"])) == k, metadata
    assert metadata["input_shape"] == f"[{t}, {c}, {j}]", metadata
    assert [i.name for i in model.graph.input] == ["poses"], model.graph.input
    assert [o.name for o in model.graph.output] == ["labelProbabilities"], model.graph.output

    # (b) onnxruntime against ActionLab, one window at a time: the input is Create ML's [window, C, J]
    session = onnxruntime.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    (input_meta,) = session.get_inputs()
    assert input_meta.shape == [t, c, j], input_meta.shape
    outputs = np.stack([session.run(["labelProbabilities"], {"poses": w})[0] for w in windows])
    assert outputs.shape == (n, k), outputs.shape
    difference = float(np.max(np.abs(outputs - expected)))
    assert difference <= TOLERANCE, f"onnxruntime differs from ActionLab by {difference} > {TOLERANCE}"

    # (c) safetensors against the HDF5 checkpoint and the ONNX initializers
    tensors = safetensors.numpy.load_file(os.path.join(export, "weights.safetensors"))
    initializers = {i.name: onnx.numpy_helper.to_array(i) for i in model.graph.initializer}
    with h5py.File(os.path.join(export, "weights.h5"), "r") as f:
        names = [name.decode() if isinstance(name, bytes) else name for name in f["model"].attrs["tensor_names"]]
        assert sorted(tensors) == sorted(names), (sorted(tensors), sorted(names))
        for name in names:
            reference = f["model"][name][()]
            assert tensors[name].dtype == np.float32 and tensors[name].shape == reference.shape, name
            assert np.array_equal(tensors[name], reference), f"safetensors tensor {name} differs from weights.h5"
            assert np.array_equal(initializers[name], reference), f"ONNX initializer {name} differs from weights.h5"

    print(json.dumps({
        "max_abs_difference": difference,
        "windows": n,
        "onnx": onnx.__version__,
        "onnxruntime": onnxruntime.__version__,
        "safetensors_tensors": len(tensors),
        "opset": [o.version for o in model.opset_import],
        "ir_version": model.ir_version,
    }))


if __name__ == "__main__":
    main()
