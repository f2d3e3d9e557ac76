#!/usr/bin/env python3
"""Checks an ActionLab Core ML export with coremltools, h5py and onnxruntime (no Core ML runtime).

    check-coreml.py DIR WINDOWS.f32 N T C J

DIR holds model.mlmodel, weights.h5 and model.onnx (from the same model); WINDOWS.f32 is N windows
[T, C, J] of little-endian float32 keypoints. Checks that
  (a) coremltools.utils.load_spec reads model.mlmodel, a NeuralNetworkClassifier of specification
      version >= 4 with Create ML's action-classifier interface: input `poses` MultiArray float32
      [T, C, J]; outputs `labelProbabilities` (dictionary, string keys) and `label` (string), named
      by predictedProbabilitiesName and predictedFeatureName; string class labels equal to the
      `labels` metadata; the metadata keys frame_rate, window_size, layout, joints, trial, seed;
  (b) every weight array in the spec equals the tensor of weights.h5's /model group it stands for,
      bit for bit, and every tensor of weights.h5 appears (a layer named P holds P.weight, P.bias,
      and for batch norm P.runningMean, P.runningVariance; a loadConstantND layer named like a
      tensor holds that tensor);
  (c) evaluating the spec's layers in NumPy (the formulas of NeuralNetwork.proto, below) gives
      class probabilities equal to onnxruntime's on model.onnx within 1e-5 for every window.
The real Core ML runtime check needs macOS (coremltools' MLModel.predict); this interpreter
makes the export checkable on Linux. Prints a JSON summary; exits non-zero with the reason otherwise.
"""
import json
import os
import sys

# The tests pin ActionLab's OpenBLAS with OPENBLAS_CORETYPE; NumPy's own OpenBLAS reads the same
# variable when it loads and may pick kernels this CPU lacks (Cooperlake: SIGILL in matmul here).
os.environ.pop("OPENBLAS_CORETYPE", None)

import coremltools
import h5py
import numpy as np
import onnxruntime
from coremltools.proto import FeatureTypes_pb2

TOLERANCE = 1e-5
METADATA_KEYS = ["labels", "frame_rate", "window_size", "layout", "joints", "trial", "seed"]


def weights(params):
    return np.asarray(params.floatValue, dtype=np.float32)


def convolution(x, p):
    """ConvolutionLayerParams: x [B, C_in, H, W], weights [C_out, C_in, kH, kW], valid padding."""
    w = weights(p.weights).reshape(p.outputChannels, p.kernelChannels, *p.kernelSize)
    (top, bottom), (left, right) = [(e.startEdgeSize, e.endEdgeSize) for e in p.valid.paddingAmounts.borderAmounts]
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    (sh, sw), (dh, dw), (kh, kw) = p.stride, p.dilationFactor, p.kernelSize
    h_out = (x.shape[2] - dh * (kh - 1) - 1) // sh + 1
    w_out = (x.shape[3] - dw * (kw - 1) - 1) // sw + 1
    y = np.zeros((x.shape[0], p.outputChannels, h_out, w_out), dtype=np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dh:i * dh + sh * (h_out - 1) + 1:sh, j * dw:j * dw + sw * (w_out - 1) + 1:sw]
            y += np.einsum("oc,bchw->bohw", w[:, :, i, j].astype(np.float64), patch)
    if p.hasBias:
        y += weights(p.bias).reshape(1, -1, 1, 1)
    return y


def max_pooling(x, p):
    """PoolingLayerParams MAX: x [B, C, H, W], valid padding that never wins (PyTorch's -inf)."""
    (top, bottom), (left, right) = [(e.startEdgeSize, e.endEdgeSize) for e in p.valid.paddingAmounts.borderAmounts]
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=-np.inf)
    (sh, sw), (kh, kw) = p.stride, p.kernelSize
    h_out = (x.shape[2] - kh) // sh + 1
    w_out = (x.shape[3] - kw) // sw + 1
    y = np.full((x.shape[0], x.shape[1], h_out, w_out), -np.inf)
    for i in range(kh):
        for j in range(kw):
            y = np.maximum(y, x[:, :, i:i + sh * (h_out - 1) + 1:sh, j:j + sw * (w_out - 1) + 1:sw])
    return y


def run_layer(layer, inputs):
    kind = layer.WhichOneof("layer")
    p = getattr(layer, kind)
    x = inputs[0] if inputs else None
    if kind == "convolution":
        return [convolution(x, p)]
    if kind == "pooling" and p.globalPooling:
        assert p.type == 1, "only global average pooling is interpreted"
        return [x.mean(axis=(2, 3), keepdims=True)]
    if kind == "pooling":
        assert p.type == 0 and p.WhichOneof("PoolingPaddingType") == "valid", "only max pooling with valid padding"
        return [max_pooling(x, p)]
    if kind == "activation":
        assert p.WhichOneof("NonlinearityType") == "ReLU"
        return [np.maximum(x, 0)]
    if kind == "innerProduct":
        w = weights(p.weights).reshape(p.outputChannels, p.inputChannels)
        y = x.reshape(-1, p.inputChannels) @ w.T.astype(np.float64)
        return [y + weights(p.bias) if p.hasBias else y]
    if kind == "batchnorm":
        shape = (1, p.channels, 1, 1)
        scale = weights(p.gamma).reshape(shape) / np.sqrt(weights(p.variance).astype(np.float64).reshape(shape) + (p.epsilon or 1e-5))
        return [(x - weights(p.mean).reshape(shape)) * scale + weights(p.beta).reshape(shape)]
    if kind == "addBroadcastable":
        return [inputs[0] + inputs[1]]
    if kind == "multiplyBroadcastable":
        return [inputs[0] * inputs[1]]
    if kind == "softmaxND":
        e = np.exp(x - x.max(axis=p.axis, keepdims=True))
        return [e / e.sum(axis=p.axis, keepdims=True)]
    if kind == "splitND":
        return np.split(x, p.numSplits, axis=p.axis)
    if kind == "concatND":
        return [np.concatenate(inputs, axis=p.axis)]
    if kind == "transpose":
        return [np.transpose(x, list(p.axes))]
    if kind == "batchedMatmul":
        assert len(inputs) == 2 and not p.transposeA and not p.transposeB
        return [np.matmul(inputs[0], inputs[1])]
    if kind == "loadConstantND":
        return [weights(p.data).reshape(list(p.shape)).astype(np.float64)]
    if kind == "flattenTo2D":
        return [x.reshape(int(np.prod(x.shape[:p.axis])), -1)]
    if kind == "reshapeStatic":
        assert int(np.prod(p.targetShape)) == x.size, (layer.name, list(p.targetShape), x.shape)
        return [x.reshape(list(p.targetShape))]
    if kind == "reduceSum":
        return [x.sum(axis=tuple(p.axes), keepdims=p.keepDims)]
    raise AssertionError(f"layer {layer.name}: {kind} is not interpreted")


def evaluate(network, window):
    blobs = {"poses": window.astype(np.float64)}
    for layer in network.layers:
        outputs = run_layer(layer, [blobs[name] for name in layer.input])
        assert len(outputs) == len(layer.output), layer.name
        blobs.update(zip(layer.output, outputs))
    return blobs[network.labelProbabilityLayerName]


def spec_tensors(network):
    """(state-dictionary name, array) for every weight array in the network."""
    for layer in network.layers:
        kind = layer.WhichOneof("layer")
        p = getattr(layer, kind)
        if kind in ("convolution", "innerProduct"):
            yield layer.name + ".weight", weights(p.weights)
            if p.hasBias:
                yield layer.name + ".bias", weights(p.bias)
        elif kind == "batchnorm":
            for field, name in (("gamma", "weight"), ("beta", "bias"), ("mean", "runningMean"), ("variance", "runningVariance")):
                yield f"{layer.name}.{name}", weights(getattr(p, field))
        elif kind == "loadConstantND":
            yield layer.name, weights(p.data)


def main():
    export, windows_path, n, t, c, j = sys.argv[1:7]
    n, t, c, j = (int(v) for v in (n, t, c, j))
    windows = np.fromfile(windows_path, dtype="<f4").reshape(n, t, c, j)

    # (a) the interface
    spec = coremltools.utils.load_spec(os.path.join(export, "model.mlmodel"))
    assert spec.specificationVersion >= 4, spec.specificationVersion
    assert spec.WhichOneof("Type") == "neuralNetworkClassifier", spec.WhichOneof("Type")
    network = spec.neuralNetworkClassifier
    description = spec.description
    (poses,) = description.input
    array = poses.type.multiArrayType
    assert poses.name == "poses" and poses.type.WhichOneof("Type") == "multiArrayType", poses
    assert list(array.shape) == [t, c, j], list(array.shape)
    assert array.dataType == FeatureTypes_pb2.ArrayFeatureType.FLOAT32, array.dataType
    outputs = {o.name: o.type for o in description.output}
    assert sorted(outputs) == ["label", "labelProbabilities"], sorted(outputs)
    assert outputs["labelProbabilities"].WhichOneof("Type") == "dictionaryType"
    assert outputs["labelProbabilities"].dictionaryType.WhichOneof("KeyType") == "stringKeyType"
    assert outputs["label"].WhichOneof("Type") == "stringType"
    assert description.predictedFeatureName == "label", description.predictedFeatureName
    assert description.predictedProbabilitiesName == "labelProbabilities", description.predictedProbabilitiesName
    assert network.arrayInputShapeMapping == 1, "EXACT_ARRAY_MAPPING"
    labels = list(network.stringClassLabels.vector)
    metadata = dict(description.metadata.userDefined)
    missing = [key for key in METADATA_KEYS if key not in metadata]
    assert not missing, f"metadata lacks {missing}"
    assert json.loads(metadata["labels"]) == labels, (metadata["labels"], labels)
    assert int(metadata["window_size"]) == t, metadata["window_size"]
    assert len(json.loads(metadata["joints"])) == j, metadata["joints"]

    # (b) the weights, bit for bit
    with h5py.File(os.path.join(export, "weights.h5"), "r") as f:
        group = f["model"]
        names = [name.decode() if isinstance(name, bytes) else name for name in group.attrs["tensor_names"]]
        found = {}
        for name, values in spec_tensors(network):
            if name not in group:
                assert name.endswith(".adjacency"), f"spec tensor {name} is not in weights.h5"
                continue
            reference = group[name][()]
            assert reference.dtype == np.float32 and values.size == reference.size, (name, values.size, reference.shape)
            assert np.array_equal(values.view(np.uint32), reference.reshape(-1).view(np.uint32)), f"{name} differs from weights.h5"
            assert name not in found, f"{name} appears twice in the spec"
            found[name] = values
        assert sorted(found) == sorted(names), f"weights.h5 tensors not in the spec: {sorted(set(names) - set(found))}"

    # (c) the layers in NumPy against onnxruntime
    session = onnxruntime.InferenceSession(os.path.join(export, "model.onnx"), providers=["CPUExecutionProvider"])
    difference = 0.0
    for window in windows:
        reference = session.run(["labelProbabilities"], {"poses": window})[0]
        probabilities = evaluate(network, window)
        assert probabilities.shape == (len(labels),), probabilities.shape
        difference = max(difference, float(np.max(np.abs(probabilities - reference))))
    assert difference <= TOLERANCE, f"the Core ML layers differ from onnxruntime by {difference} > {TOLERANCE}"

    print(json.dumps({
        "max_abs_difference": difference,
        "windows": n,
        "layers": len(network.layers),
        "tensors": len(found),
        "labels": labels,
        "specification_version": spec.specificationVersion,
        "coremltools": coremltools.__version__,
    }))


if __name__ == "__main__":
    main()
