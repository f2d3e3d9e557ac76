"""PyTorch's training rate for scripts/bench-training, float32, Adam: st-gcn's own Model (the
modules of scripts/make-stgcn-fixtures) for stgcn and stgcn-small, and PYSKL's ST-GCN++ (the
modules of scripts/make-gcn-fixtures) for stgcnpp and stgcnpp-small, and PYSKL's CTR-GCN (those of
scripts/make-ctrgcn-fixtures) for ctrgcn and ctrgcn-small: the modules the golden-fixture tests
compare ActionLab against.

    python scripts/bench-training-torch.py --model stgcn --threads 1 [--batch 32] [--frames 60]
        [--classes 6] [--steps 5] [--warmup 1] [--layers R]

Each step: forward in training mode, cross-entropy, zero_grad, backward, Adam step, on random
windows [B, 3, T, 18, 1] with random labels. Prints one JSON line with the same fields as
ActionLab's `training-benchmark`, plus "flopsPerWindow" (see flops_per_window) for both sides.
With --layers R (stgcn and stgcn-small), also "layers": seconds per step of each kind of layer,
forward and backward, measured as `training-benchmark --layers R` measures ActionLab's
(layer_profile).
"""
import argparse
import importlib.machinery
import importlib.util
import json
import pathlib
import time

import torch
import torch.nn as nn

PRESETS = {
    'stgcn': [(64, 1), (64, 1), (64, 1), (128, 2), (128, 1), (128, 1), (256, 2), (256, 1), (256, 1)],
    'stgcn-small': [(32, 1), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1)],
    'stgcnpp': [(64, 1), (64, 1), (64, 1), (64, 1), (128, 2), (128, 1), (128, 1), (256, 2), (256, 1), (256, 1)],
    'stgcnpp-small': [(32, 1), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1)],
    'ctrgcn': [(64, 1), (64, 1), (64, 1), (64, 1), (128, 2), (128, 1), (128, 1), (256, 2), (256, 1), (256, 1)],
    'ctrgcn-small': [(32, 1), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1)],
}
# The fixture script whose Model each family's PyTorch side uses.
FIXTURES = {'stgcn': 'make-stgcn-fixtures', 'stgcn-small': 'make-stgcn-fixtures',
            'stgcnpp': 'make-gcn-fixtures', 'stgcnpp-small': 'make-gcn-fixtures',
            'ctrgcn': 'make-ctrgcn-fixtures', 'ctrgcn-small': 'make-ctrgcn-fixtures'}
KERNEL, PARTITIONS, JOINTS, CHANNELS = 9, 3, 18, 3


def fixtures_module(name):
    """scripts/<name> as a module (it has no .py suffix), for its Model."""
    path = pathlib.Path(__file__).with_name(name)
    loader = importlib.machinery.SourceFileLoader(name.replace('-', '_'), str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    torch.set_default_dtype(torch.float32)  # the fixtures module computes in float64
    return module


def flops_per_window(model, blocks, frames, classes):
    """Floating-point operations of one window's training step, forward and backward.

    Counted as st-gcn's reference computes the model, the same count for both sides:
    2 x multiply-adds of every convolution (graph 1x1 conv to K*C_out channels, temporal 9x1,
    residual 1x1), of the graph aggregation einsum over V x V per partition, and of the
    classifier; backward = 2 x forward (input and weight gradients), so a step is 3 x forward.
    Batch normalization, ReLU, pooling and the optimizer are left out (linear in the activations,
    a few per cent). ActionLab aggregates before mixing channels, which needs fewer operations
    for the graph convolution; GFLOP/s here is this model count over time, for both.
    """
    if model.startswith('stgcnpp'):
        return stgcnpp_flops_per_window(blocks, frames, classes)
    if model.startswith('ctrgcn'):
        return ctrgcn_flops_per_window(blocks, frames, classes)
    multiply_adds, width, length = 0, CHANNELS, frames
    for channels, stride in blocks:
        plane = length * JOINTS
        multiply_adds += PARTITIONS * channels * width * plane          # gcn.conv
        multiply_adds += PARTITIONS * channels * plane * JOINTS         # einsum nkctv,kvw->nctw
        out_length = (length - 1) // stride + 1
        out_plane = out_length * JOINTS
        multiply_adds += channels * channels * KERNEL * out_plane       # tcn 9x1 conv
        if width != channels or stride != 1:
            multiply_adds += channels * width * out_plane               # residual 1x1 conv
        width, length = channels, out_length
    multiply_adds += width * classes                                    # fcn
    return 3 * 2 * multiply_adds


def stgcnpp_flops_per_window(blocks, frames, classes):
    """flops_per_window's count for ST-GCN++: per block the graph unit (1x1 conv to K*C_out, the
    einsum over V x V per partition, the 1x1 down projection when channels change), the six
    temporal branches (1x1 convs to C/6 channels at the input length; dilated 3x1 convs at the
    output length; the strided 1x1 branch), the transform's 1x1 conv and the block's residual
    projection; then the classifier; a step is 3 x forward."""
    multiply_adds, width, length = 0, CHANNELS, frames
    for index, (channels, stride) in enumerate(blocks):
        plane = length * JOINTS
        multiply_adds += PARTITIONS * channels * width * plane + PARTITIONS * channels * plane * JOINTS
        if width != channels:
            multiply_adds += channels * width * plane
        branch = channels // 6
        out_length = (length - 1) // stride + 1
        out_plane = out_length * JOINTS
        multiply_adds += 5 * branch * channels * plane                   # the 1x1 convs of 5 branches
        multiply_adds += 4 * branch * branch * 3 * out_plane             # the dilated 3x1 convs
        multiply_adds += branch * channels * out_plane                   # the strided 1x1 branch
        multiply_adds += channels * channels * out_plane                 # transform 1x1
        if index > 0 and (width != channels or stride != 1):
            multiply_adds += channels * width * out_plane                # residual projection
        width, length = channels, out_length
    multiply_adds += width * classes
    return 3 * 2 * multiply_adds


def ctrgcn_flops_per_window(blocks, frames, classes):
    """flops_per_window's count for CTR-GCN: per block and subset the refinement's 1x1 convs
    (conv1, conv2 to R channels, conv3 to C_out), conv4 on the [R, V, V] topology and the einsum
    over V x V; the down projection when channels change; the four temporal branches (1x1 convs
    to C/4, two dilated 5x1 convs at the output length, the strided 1x1 branch) and the residual
    projection; then the classifier; a step is 3 x forward."""
    multiply_adds, width, length = 0, CHANNELS, frames
    for index, (channels, stride) in enumerate(blocks):
        plane = length * JOINTS
        relation = 8 if width <= 16 else width // 8
        per_subset = (2 * relation * width * plane + channels * width * plane + channels * relation * JOINTS * JOINTS
                      + channels * plane * JOINTS)
        multiply_adds += PARTITIONS * per_subset
        if width != channels:
            multiply_adds += channels * width * plane
        branch = channels // 4
        out_length = (length - 1) // stride + 1
        out_plane = out_length * JOINTS
        multiply_adds += 3 * branch * channels * plane                   # the 1x1 convs of 3 branches
        multiply_adds += 2 * branch * branch * 5 * out_plane             # the dilated 5x1 convs
        multiply_adds += (channels - 3 * branch) * channels * out_plane  # the strided 1x1 branch
        if index > 0 and (width != channels or stride != 1):
            multiply_adds += channels * width * out_plane                # residual projection
        width, length = channels, out_length
    multiply_adds += width * classes
    return 3 * 2 * multiply_adds


LAYER_KINDS = ['graph convolution', 'temporal convolution', 'residual convolution', 'batch normalization', 'ReLU',
               'residual sum']


def layer_profile(model, batch, frames, repeats):
    """Seconds per training step of each kind of layer of st-gcn's Model, forward and backward.

    As ActionLab's LayerProfile (Sources/training-benchmark/LayerProfile.swift): each layer of
    each block runs alone on the input it gets in a training-mode forward pass, R times a timed
    forward and a timed backward of a fixed random output gradient, the input requiring a
    gradient as inside a step; times are summed by kind over the blocks and divided by R. The
    graph convolution includes `A * importance`, as Model.forward computes it for each block.
    ReLU is measured out of place (an in-place ReLU cannot take a leaf that requires a gradient);
    Dropout(0) is left out, as ActionLab builds no layer for it. Block inputs start from a
    random [B, 3, T, 18] tensor, as ActionLab's.
    """
    forward, backward = {}, {}
    generator = torch.Generator().manual_seed(0)

    def time_layer(kind, function, x):
        x = x.detach().requires_grad_(True)
        output = function(x)
        gradient = torch.rand(output.shape, generator=generator) * 2 - 1
        output.backward(gradient)  # warm-up
        for _ in range(repeats):
            started = time.perf_counter()
            output = function(x)
            middle = time.perf_counter()
            output.backward(gradient)
            ended = time.perf_counter()
            forward[kind] = forward.get(kind, 0.0) + (middle - started) / repeats
            backward[kind] = backward.get(kind, 0.0) + (ended - middle) / repeats
        return output.detach()

    def kind_of(module):
        if isinstance(module, nn.Conv2d):
            return 'temporal convolution' if module.kernel_size[0] > 1 else 'residual convolution'
        return 'batch normalization' if isinstance(module, nn.BatchNorm2d) else 'ReLU'

    x = torch.rand(batch, CHANNELS, frames, JOINTS, generator=generator) * 2 - 1
    for block, importance in zip(model.st_gcn_networks, model.edge_importance):
        y = time_layer('graph convolution', lambda inputs: block.gcn(inputs, model.A * importance)[0], x)
        for module in block.tcn:
            if isinstance(module, nn.Dropout):
                continue
            function = nn.functional.relu if isinstance(module, nn.ReLU) else module
            y = time_layer(kind_of(module), function, y)
        residual = x
        if isinstance(block.residual, nn.Sequential):
            for module in block.residual:
                residual = time_layer(kind_of(module), module, residual)
        if isinstance(block.residual, nn.Sequential) or block.residual(1) == 1:
            with torch.no_grad():
                for _ in range(repeats):
                    started = time.perf_counter()
                    total = y + residual
                    seconds = time.perf_counter() - started
                    forward['residual sum'] = forward.get('residual sum', 0.0) + seconds / repeats
                    backward['residual sum'] = backward.get('residual sum', 0.0) + seconds / repeats
            y = total
        x = time_layer('ReLU', nn.functional.relu, y)
    return {kind: {'forward': forward[kind], 'backward': backward[kind]} for kind in LAYER_KINDS if kind in forward}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--model', choices=sorted(PRESETS), required=True)
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--batch', type=int, default=32)
    parser.add_argument('--frames', type=int, default=60)
    parser.add_argument('--classes', type=int, default=6)
    parser.add_argument('--steps', type=int, default=5)
    parser.add_argument('--warmup', type=int, default=1)
    parser.add_argument('--layers', type=int, default=0, help='R: also time each kind of layer, R repeats (stgcn families)')
    arguments = parser.parse_args()
    if arguments.layers and arguments.model not in ('stgcn', 'stgcn-small'):
        parser.error('--layers profiles stgcn and stgcn-small')
    torch.set_num_threads(arguments.threads)
    torch.manual_seed(0)
    blocks = PRESETS[arguments.model]
    model = fixtures_module(FIXTURES[arguments.model]).Model(CHANNELS, arguments.classes, blocks).float().train()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_function = nn.CrossEntropyLoss()
    inputs = torch.rand(arguments.batch, CHANNELS, arguments.frames, JOINTS, 1)
    labels = torch.randint(0, arguments.classes, (arguments.batch,))

    def step():
        loss = loss_function(model(inputs), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    for _ in range(arguments.warmup):
        step()
    started = time.perf_counter()
    for _ in range(arguments.steps):
        step()
    seconds = time.perf_counter() - started
    report = {
        'model': arguments.model, 'threads': arguments.threads, 'batch': arguments.batch,
        'frames': arguments.frames, 'steps': arguments.steps, 'seconds': seconds,
        'windowsPerSecond': arguments.steps * arguments.batch / seconds,
        'flopsPerWindow': flops_per_window(arguments.model, blocks, arguments.frames, arguments.classes),
        'torch': torch.__version__,
    }
    if arguments.layers:
        report['layers'] = layer_profile(model, arguments.batch, arguments.frames, arguments.layers)
    print(json.dumps(report, sort_keys=True))


if __name__ == '__main__':
    main()
