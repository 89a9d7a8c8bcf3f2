"""viz.draw_double_backward: the graph of y and, beside it, the graph create_graph=True records for dy/dx.

Torch-free: two clusters (graphviz subgraphs) with a caption each, every node of the gradient's graph drawn
(its new nodes in the second cluster, the nodes it reaches back into in the first), the words in words too.
With torch 2.13 (skipped without it): the gradient's nodes are named as PyTorch's ``grad_fn`` chain names
them, breadth first, for tanh, x * x, exp and sigmoid.
"""
import importlib.util
import re
from collections import deque

import pytest

import mini_autograd
from mini_autograd import viz

FUNCTIONS = {"tanh": lambda x: x.tanh(), "x * x": lambda x: x * x, "exp": lambda x: x.exp(),
             "sigmoid": lambda x: x.sigmoid()}


def bfs(tensor):
    seen, nodes, queue = set(), [], deque([tensor.grad_fn])
    while queue:
        node = queue.popleft()
        if node is None or node in seen:
            continue
        seen.add(node)
        nodes.append(node)
        queue.extend(next_node for next_node, _nr in node.next_functions)
    return nodes


def bfs_names(tensor):
    return [node.name().rsplit("::", 1)[-1] for node in bfs(tensor)]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_two_clusters_and_every_node_of_the_gradients_graph(name):
    x = mini_autograd.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    y = FUNCTIONS[name](x).sum()
    picture = viz.draw_double_backward(y, x, params={"x": x})
    source = picture.source
    assert source.count("subgraph cluster_") == 2
    assert "first-order graph: recorded by the forward pass" in source
    assert "graph of the gradient: recorded by backward with create_graph=True" in source
    (gradient,) = picture.gradients
    assert gradient.grad_fn is not None
    assert picture.gradient_nodes == bfs_names(gradient)
    assert picture.first_order == bfs_names(y)
    # every node id of both graphs is drawn, each in one cluster; the gradient's new nodes in the second
    clusters = picture.clusters
    assert set(clusters["first"]).isdisjoint(clusters["gradient"])
    drawn = set(re.findall(r"^\t+(n\d+) \[", source, re.M))
    assert drawn == set(clusters["first"]) | set(clusters["gradient"])
    assert len(clusters["first"]) == len(bfs(y))
    assert len(drawn) == len(set(bfs(y)) | set(bfs(gradient)))
    new = [n for n in picture.gradient_nodes if n not in picture.first_order]
    text = picture.text
    assert all(n in text.split("graph of the gradient:")[1] for n in new)
    assert "output dy/dx [3]" in text


def test_the_gradients_cluster_holds_the_new_nodes():
    x = mini_autograd.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    picture = viz.draw_double_backward((x * x).sum(), x, params={"x": x})
    inside = picture.source.split("subgraph cluster_gradient")[1].split("}")[0]
    assert re.findall(r"\b(AddBackward0|MulBackward0)\b", inside).count("MulBackward0") == 2
    assert "AccumulateGrad" not in inside           # the leaf's node is the first-order graph's


def test_non_scalar_output_and_unnamed_tensors():
    x = mini_autograd.tensor([1.0, 2.0], requires_grad=True)
    picture = viz.draw_double_backward(x.exp(), x)
    assert picture.gradient_nodes == ["MulBackward0", "ExpBackward0", "AccumulateGrad"]
    assert "output gradient [2]" in picture.text


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch is not installed")
@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_gradients_node_names_are_pytorchs(name):
    import torch
    xt = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    (gt,) = torch.autograd.grad(FUNCTIONS[name](xt).sum(), xt, create_graph=True)
    x = mini_autograd.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    picture = viz.draw_double_backward(FUNCTIONS[name](x).sum(), x, params={"x": x})
    assert picture.gradient_nodes == bfs_names(gt)
    assert picture.first_order == bfs_names(FUNCTIONS[name](xt).sum())
    assert picture.gradient_nodes[0] == {"tanh": "TanhBackwardBackward0", "x * x": "AddBackward0",
                                         "exp": "MulBackward0", "sigmoid": "SigmoidBackwardBackward0"}[name]
