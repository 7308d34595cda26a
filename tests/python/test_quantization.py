"""torch.ao.quantization / torch.quantization for float models, torch.ao.nn.intrinsic, FloatFunctional,
and torch.onnx's registry (export itself is not implemented)."""
import pytest
import torch
import torch.nn as nn


def test_stubs_are_identity_and_aliases():
    import torch.ao.quantization as q
    x = torch.randn(3)
    assert torch.equal(q.QuantStub()(x), x) and torch.equal(q.DeQuantStub()(x), x)
    assert torch.quantization.QuantStub is q.QuantStub
    assert nn.quantized.FloatFunctional is torch.ao.nn.quantized.FloatFunctional
    assert nn.intrinsic.ConvReLU2d is torch.ao.nn.intrinsic.ConvReLU2d


def test_float_functional():
    ff = nn.quantized.FloatFunctional()
    a, b = torch.tensor([1.0, -2.0]), torch.tensor([1.0, 1.0])
    assert torch.equal(ff.add(a, b), a + b)
    assert torch.equal(ff.add_relu(a, b), torch.relu(a + b))
    assert torch.equal(ff.cat([a, b], dim=0), torch.cat([a, b]))
    assert torch.equal(ff.mul(a, b), a * b)
    with pytest.raises(RuntimeError, match="not intended to use the 'forward'"):
        ff(a)


def test_intrinsic_modules_check_their_parts():
    import torch.ao.nn.intrinsic as nni
    m = nni.ConvBnReLU2d(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU())
    assert isinstance(m, nn.Sequential) and len(m) == 3
    with pytest.raises(AssertionError, match='Incorrect types for input modules'):
        nni.ConvReLU2d(nn.Linear(1, 1), nn.ReLU())


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.fc = nn.Linear(4, 2)
        self.fc_relu = nn.ReLU()

    def forward(self, x):
        x = self.relu(self.bn(self.conv(x)))
        return self.fc_relu(self.fc(x.mean((2, 3))))


def test_fuse_modules_eval_folds_batch_norm():
    import torch.ao.quantization as q
    torch.manual_seed(0)
    m = ConvNet()
    m.bn.running_mean.uniform_(-1, 1)
    m.bn.running_var.uniform_(0.5, 2)
    m.eval()
    fused = q.fuse_modules(m, [['conv', 'bn', 'relu'], ['fc', 'fc_relu']])
    assert type(fused.conv).__name__ == 'ConvReLU2d' and isinstance(fused.bn, nn.Identity)
    assert type(fused.fc).__name__ == 'LinearReLU' and isinstance(fused.fc_relu, nn.Identity)
    assert type(m.conv) is nn.Conv2d  # not inplace: the original is untouched
    x = torch.randn(2, 3, 8, 8)
    assert torch.allclose(fused(x), m(x), atol=1e-5)
    with pytest.raises(AssertionError, match='Fusion only for eval!'):
        q.fuse_modules(ConvNet().train(), ['conv', 'bn'])


def test_fuse_modules_qat_keeps_batch_norm():
    import torch.ao.quantization as q
    m = q.fuse_modules_qat(ConvNet().train(), ['conv', 'bn', 'relu'])
    assert type(m.conv).__name__ == 'ConvBnReLU2d' and isinstance(m.conv[1], nn.BatchNorm2d)


def test_qconfig_and_observers():
    import torch.ao.quantization as q
    qc = q.get_default_qconfig('fbgemm')
    assert isinstance(qc, q.QConfig) and callable(qc.activation) and callable(qc.weight)
    with pytest.raises(ValueError, match='observer instance'):
        q.QConfig(activation=q.MinMaxObserver(), weight=q.default_weight_observer)
    obs = q.MinMaxObserver()
    obs(torch.tensor([-1.0, 3.0]))
    obs(torch.tensor([2.0, 5.0]))
    assert float(obs.min_val) == -1.0 and float(obs.max_val) == 5.0
    scale, zero_point = obs.calculate_qparams()
    assert abs(float(scale) - 6.0 / 255) < 1e-6 and int(zero_point) == 42


def test_histogram_observer_refuses_min_max_parameters():
    import torch.ao.quantization as q
    obs = q.get_default_qconfig('fbgemm').activation()
    assert isinstance(obs, q.HistogramObserver)
    obs(torch.tensor([-1.0, 3.0]))
    assert float(obs.min_val) == -1.0 and float(obs.max_val) == 3.0
    with pytest.raises(NotImplementedError, match='histogram search'):
        obs.calculate_qparams()


def test_converting_needs_quantized_tensors():
    import torch.ao.quantization as q
    with pytest.raises(NotImplementedError, match='quantized tensors'):
        q.convert(ConvNet())


def test_onnx_registry_and_export_error():
    import torch.onnx
    from torch.onnx import symbolic_helper, symbolic_opset9, symbolic_opset11  # noqa: F401
    torch.onnx.register_custom_op_symbolic('mylib::op', lambda g, x: x, 11)
    torch.onnx.unregister_custom_op_symbolic('mylib::op', 11)
    with pytest.raises(torch.onnx.errors.OnnxExporterError, match='must match the format domain::name'):
        torch.onnx.register_custom_op_symbolic('relu', lambda g, x: x, 9)

    @symbolic_helper.parse_args('v', 'i', 'f')
    def sym(g, x, i, f):
        return x, i, f
    assert sym(None, 'value', torch.tensor(3), 2) == ('value', 3, 2.0)
    assert not torch.onnx.is_in_onnx_export()
    with pytest.raises(RuntimeError, match='not implemented'):
        torch.onnx.export(nn.Linear(1, 1), torch.ones(1), 'x.onnx')
    from torch.onnx import operators
    assert operators.shape_as_tensor(torch.ones(2, 3)).tolist() == [2, 3]
