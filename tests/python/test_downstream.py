"""A quick subset of tools/downstream for CI: Debian's torchvision (unpacked by `tools/downstream fetch`,
or found in /opt/downstream) imports and runs on this framework. Expected values were recorded from
PyTorch 1.13.1 with the same seeds (models are built from seed 0 and must agree within 1e-3 relative).
Skips, saying why, when the unpacked package is absent."""
import os
import sys

import pytest
import torch

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CANDIDATES = [os.path.join(REPO, 'build', 'downstream', 'root', 'usr', 'lib', 'python3', 'dist-packages'),
              '/opt/downstream/torchvision/usr/lib/python3/dist-packages']
SITE = next((p for p in CANDIDATES if os.path.isdir(os.path.join(p, 'torchvision'))), None)

pytestmark = pytest.mark.skipif(SITE is None, reason="Debian's python3-torchvision is not unpacked: run "
                                "`tools/downstream fetch` (looked in %s)" % ', '.join(CANDIDATES))

# output[0, :4] and output.sum() for a (1, 3, 64, 64) input from seed 1, the model built from seed 0
REFERENCE_OUTPUTS = {
    'resnet18': [0.739362, 0.662244, -0.721148, 0.373782, 47.08739],
    'regnet_x_400mf': [-0.034712, -0.045125, -0.039419, -0.00214, 0.41942],
    'squeezenet1_1': [0.191643, 0.147945, 0.173588, 0.078999, 113.02293],
}


@pytest.fixture(scope='module')
def torchvision():
    if SITE not in sys.path:
        sys.path.append(SITE)
    import torchvision
    return torchvision


@pytest.mark.parametrize('name', sorted(REFERENCE_OUTPUTS))
def test_model_forward_matches_reference_and_backward_runs(torchvision, name):
    torch.manual_seed(0)
    model = torchvision.models.get_model(name).eval()
    torch.manual_seed(1)
    x = torch.randn(1, 3, 64, 64)
    y = model(x)
    got = y[0, :4].tolist() + [float(y.sum())]
    scale = max(abs(v) for v in REFERENCE_OUTPUTS[name][:4])
    for g, r in zip(got[:4], REFERENCE_OUTPUTS[name][:4]):
        assert abs(g - r) <= 1e-3 * scale
    assert abs(got[4] - REFERENCE_OUTPUTS[name][4]) <= 1e-3 * max(abs(REFERENCE_OUTPUTS[name][4]), 1.0)
    y.sum().backward()
    assert all(p.grad is not None and bool(torch.isfinite(p.grad).all()) for p in model.parameters())


def test_feature_extraction(torchvision):
    from torchvision.models.feature_extraction import create_feature_extractor, get_graph_node_names
    torch.manual_seed(0)
    model = torchvision.models.resnet18().eval()
    train_nodes, eval_nodes = get_graph_node_names(model)
    assert train_nodes == eval_nodes and len(eval_nodes) == 70
    assert eval_nodes[:6] == ['x', 'conv1', 'bn1', 'relu', 'maxpool', 'layer1.0.conv1']
    assert eval_nodes[-6:] == ['layer4.1.bn2', 'layer4.1.add', 'layer4.1.relu_1', 'avgpool', 'flatten', 'fc']
    extractor = create_feature_extractor(model, return_nodes={'layer2.1.add': 'mid', 'fc': 'out'})
    x = torch.randn(2, 3, 64, 64)
    feats = extractor(x)
    assert feats['mid'].shape == (2, 128, 8, 8)
    assert torch.allclose(feats['out'], model(x), atol=1e-5)


def test_transforms(torchvision):
    import torchvision.transforms as T
    torch.manual_seed(3)
    img = (torch.rand(3, 40, 48) * 255).to(torch.uint8)
    torch.manual_seed(4)
    r = T.Compose([T.RandomResizedCrop(24), T.ColorJitter(0.4, 0.4, 0.4, 0.1)])(img)
    assert r.shape == (3, 24, 24) and abs(int(r.int().sum()) - 276071) <= 2  # uint8 rounding
    torch.manual_seed(5)
    assert int(T.AutoAugment()(img).int().sum()) == 611145
    pil = T.ToPILImage()(img)
    torch.manual_seed(4)
    out = T.Compose([T.RandomResizedCrop(24), T.ColorJitter(0.4, 0.4, 0.4, 0.1), T.ToTensor(),
                     T.Normalize((0.5,) * 3, (0.25,) * 3)])(pil)
    assert out.shape == (3, 24, 24) and out.dtype == torch.float32


def test_datasets_and_utils(torchvision, tmp_path):
    import torchvision.transforms as T
    from PIL import Image
    data = torchvision.datasets.FakeData(size=8, image_size=(3, 10, 10), num_classes=3, transform=T.ToTensor())
    x, y = next(iter(torch.utils.data.DataLoader(data, batch_size=4)))
    assert x.shape == (4, 3, 10, 10) and y.dtype == torch.int64
    grid = torchvision.utils.make_grid(x, nrow=2, padding=1)
    assert grid.shape == (3, 23, 23)
    path = str(tmp_path / 'grid.png')
    torchvision.utils.save_image(x, path, nrow=2, padding=1)
    assert Image.open(path).size == (23, 23)
