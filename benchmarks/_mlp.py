"""The MLP of benchmark 1, shared by bench_mlp_step.py and bench_step_breakdown.py: mini_autograd's
model and data, and the same step written by hand in numpy, phase by phase.

Import it after ``_common`` (which fixes the BLAS thread count before numpy loads).
"""
import numpy as np

import mini_autograd as mt

ACTIVATIONS = {"relu": "ReLU", "tanh": "Tanh"}      # the name in the results, the nn module's name


def mini_model(sizes, activation="relu"):
    """``Linear -> activation -> Linear`` in mini_autograd (call ``mt.manual_seed`` first)."""
    return mt.nn.Sequential(mt.nn.Linear(sizes[0], sizes[1]), getattr(mt.nn, ACTIVATIONS[activation])(),
                            mt.nn.Linear(sizes[1], sizes[2]))


def training_step(model, loss_fn, optimizer, x, y):
    """One training step as the tutorials write it, for mini_autograd and PyTorch alike (the same API):
    ``step() -> loss`` runs ``zero_grad``, the forward pass, ``backward`` and ``optimizer.step()``."""
    def step():
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()
    return step


def torch_training_step(torch, model, weights, x, y, lr):
    """PyTorch's SGD step of cross-entropy for ``model``, loaded with ``weights`` (numpy arrays in
    ``state_dict`` order) so that it starts where the other implementations start."""
    model.load_state_dict({k: torch.tensor(w) for k, w in zip(model.state_dict(), weights, strict=True)})
    return training_step(model, torch.nn.CrossEntropyLoss(), torch.optim.SGD(model.parameters(), lr=lr),
                         torch.tensor(x), torch.tensor(y))


def make_batch(size, sizes):
    """A batch of inputs (float32) and class labels, the same in every script: ``(x, y)`` numpy arrays."""
    rng = np.random.default_rng(0)
    return rng.standard_normal((size, sizes[0])).astype(np.float32), rng.integers(0, sizes[2], size)


class NumpyMLP:
    """The same MLP and SGD step, with the backward pass written out by hand."""

    def __init__(self, w1, b1, w2, b2, activation="relu"):
        self.w1, self.b1, self.w2, self.b2 = (np.array(p, dtype=np.float32) for p in (w1, b1, w2, b2))
        self.activation = activation

    def step(self, x, y, lr):
        loss = self.forward(x, y)
        self.update(self.backward(x, y), lr)
        return loss

    def forward(self, x, y):
        """The loss; what backward needs is kept on self."""
        self.h = h = x @ self.w1.T
        h += self.b1
        self.a = np.maximum(h, 0) if self.activation == "relu" else np.tanh(h)
        logits = self.a @ self.w2.T
        logits += self.b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        self.log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        return -self.log_probs[np.arange(len(y)), y].mean()

    def backward(self, x, y):
        """The four parameters' gradients."""
        n = len(y)
        d_logits = np.exp(self.log_probs)           # softmax
        d_logits[np.arange(n), y] -= 1
        d_logits /= n
        d_w2 = d_logits.T @ self.a
        d_b2 = d_logits.sum(axis=0)
        d_h = d_logits @ self.w2
        if self.activation == "relu":
            d_h *= self.h > 0
        else:
            d_h *= 1 - self.a * self.a
        return d_h.T @ x, d_h.sum(axis=0), d_w2, d_b2

    def update(self, grads, lr):
        """SGD."""
        for param, grad in zip((self.w1, self.b1, self.w2, self.b2), grads, strict=True):
            param -= lr * grad
