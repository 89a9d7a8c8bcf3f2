"""Planted mistakes of chapters 10 and 11 (issue 26): the same format as buildtrack_mistakes.MISTAKES.

Each entry: (step, file, text in the answer key, what a learner wrote instead, words the check's message
must contain). Real wrong code that once got a ✅, and mistakes only the random cases find.
"""

GRADCHECK_CENTRAL = ("                flat[j] = original - eps\n                minus = "
                     "function(*inputs)._data.copy()\n                flat[j] = original\n                "
                     "numerical[j] = ((plus - minus) / (2 * eps)).reshape(-1)\n")
GRADCHECK_COMPARE = "            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):\n"
SGD_STEP = ("        with no_grad():\n            for p in self.parameters:\n"
            "                if p.grad is not None:\n                    p.sub_(self.lr * p.grad)\n")
CROSS_ENTROPY = ("    n, classes = logits.shape\n    shifted = logits - logits.max(dim=1, keepdim=True)\n  "
                 "  log_probs = shifted - shifted.exp().sum(dim=1, keepdim=True).log()\n    picked = "
                 "(one_hot(targets, classes) * log_probs).sum()\n    return (0.0 - picked) / n\n")

MISTAKES = [
    # 10.1 Linear: k = 1/in_features, not 1/sqrt(in_features)
    ("10.1", "nn.py", "        bound = 1 / np.sqrt(in_features)\n", "        bound = 1 / in_features\n",
     "k = 1/in_features"),
    # 10.1: k from out_features
    ("10.1", "nn.py", "        bound = 1 / np.sqrt(in_features)\n",
     "        bound = 1 / np.sqrt(out_features)\n", "1/sqrt(out_features)"),
    # 10.1: the layer seeds the generator itself: every layer the same, whatever the seed
    ("10.1", "nn.py", "        bound = 1 / np.sqrt(in_features)\n",
     "        creation.manual_seed(0)\n        bound = 1 / np.sqrt(in_features)\n",
     "does your Linear call manual_seed itself"),
    # 10.1: weight drawn as (in, out) and used untransposed: right only when in_features == out_features ...
    # (caught by the shapes); here the bias added to the wrong axis of a square layer:
    ("10.1", "nn.py", "        return x @ transpose(self.weight) + self.bias\n",
     "        return x @ self.weight + self.bias\n", "x @ weightᵀ + bias"),
    # 10.2 cross_entropy: shifted by the batch's largest logit, not each row's
    ("10.2", "nn.py", "    shifted = logits - logits.max(dim=1, keepdim=True)\n",
     "    shifted = logits - Tensor(logits._data.max())\n", "its own largest logit"),
    # 10.2: a fused backward, (softmax - onehot) / n, that drops the gradient arriving from upstream
    ("10.2", "nn.py", CROSS_ENTROPY,
     "    return _FusedCrossEntropy.apply(logits, targets)\n\n\nclass _FusedCrossEntropy(Function):\n    "
     "@staticmethod\n    def forward(ctx, logits, targets):\n        z = logits._data - "
     "logits._data.max(axis=1, keepdims=True)\n        log_probs = z - np.log(np.exp(z).sum(axis=1, "
     "keepdims=True))\n        onehot = np.eye(z.shape[1], dtype=z.dtype)[np.asarray(targets._data)]\n     "
     "   ctx.softmax, ctx.onehot = np.exp(log_probs), onehot\n        return Tensor(np.asarray(-(onehot * "
     "log_probs).sum() / len(z), dtype=z.dtype))\n\n    @staticmethod\n    def backward(ctx, grad):\n      "
     "  return Tensor((ctx.softmax - ctx.onehot) / len(ctx.onehot)), None\n",
     "gradient arriving from upstream"),
    # 10.2: the shift per column (dim=0), which changes the result
    ("10.2", "nn.py", "    shifted = logits - logits.max(dim=1, keepdim=True)\n",
     "    shifted = logits - logits.max(dim=0, keepdim=True)\n", "PyTorch's F.cross_entropy gives"),
    # 10.3 SGD.step: recording switched off and never switched back on
    ("10.3", "optim.py", SGD_STEP,
     "        from .grad_mode import set_grad_enabled\n        set_grad_enabled(False)\n        for p in "
     "self.parameters:\n            if p.grad is not None:\n                p.sub_(self.lr * p.grad)\n",
     "left it so"),
    # 10.3: switched back on at the end, whatever it was before
    ("10.3", "optim.py", SGD_STEP,
     "        from .grad_mode import set_grad_enabled\n        set_grad_enabled(False)\n        for p in "
     "self.parameters:\n            if p.grad is not None:\n                p.sub_(self.lr * p.grad)\n     "
     "   set_grad_enabled(True)\n",
     "put back the mode it found"),
    # 11.1 gradcheck: a one-sided difference
    ("11.1", "gradcheck.py", GRADCHECK_CENTRAL,
     "                flat[j] = original\n"
     "                minus = function(*inputs)._data.copy()\n"
     "                numerical[j] = ((plus - minus) / eps).reshape(-1)\n",
     "one-sided difference"),
    # 11.1: eps hard-coded to 1e-2
    ("11.1", "gradcheck.py", "    grads_before = [t.grad for t in inputs]\n",
     "    eps = 1e-2\n    grads_before = [t.grad for t in inputs]\n", "not by the eps it was given"),
    # 11.1: eps hard-coded to PyTorch's default: the eps given is ignored
    ("11.1", "gradcheck.py", "    grads_before = [t.grad for t in inputs]\n",
     "    eps = 1e-6\n    grads_before = [t.grad for t in inputs]\n", "eps=0.01"),
    # 11.1: only the first output column of the Jacobians compared
    ("11.1", "gradcheck.py", GRADCHECK_COMPARE,
     "            if not np.allclose(analytical[:, 0], numerical[:, 0], rtol=rtol, atol=atol):\n",
     "every output entry"),
    # 11.1: a crash when an input gets no gradient (its .grad stays None)
    ("11.1", "gradcheck.py",
     "                if tensor.grad is not None:\n"
     "                    analytical[:, k] = tensor.grad._data.reshape(-1)\n",
     "                analytical[:, k] = tensor.grad._data.reshape(-1)\n", "stays None"),
    # 11.1: the message in the textbook layout (rows = output entries)
    ("11.1", "gradcheck.py", '        f"numerical:{numerical}\\nanalytical:{analytical}\\n"',
     '        f"numerical:{numerical.T}\\nanalytical:{analytical.T}\\n"', "one row per input entry"),
    # 11.1: rtol ignored (np.allclose's own rtol, 1e-5)
    ("11.1", "gradcheck.py", GRADCHECK_COMPARE,
     "            if not np.allclose(analytical, numerical, atol=atol):\n", "rtol"),
    # 11.1: atol ignored (np.allclose's own atol, 1e-8)
    ("11.1", "gradcheck.py", GRADCHECK_COMPARE,
     "            if not np.allclose(analytical, numerical, rtol=rtol):\n", "atol"),
    # 11.1: `>` on the absolute difference only
    ("11.1", "gradcheck.py", GRADCHECK_COMPARE,
     "            if (np.abs(analytical - numerical) > atol).any():\n", "rtol"),
    # 11.1: the tolerances of the call ignored (PyTorch's defaults, written in)
    ("11.1", "gradcheck.py", GRADCHECK_COMPARE,
     "            if not np.allclose(analytical, numerical, rtol=1e-3, atol=1e-5):\n",
     "atol gradcheck was given"),
    # 11.1: a tolerance too loose: the sum of the entries compared, not each entry
    ("11.1", "gradcheck.py", GRADCHECK_COMPARE,
     "            if not np.allclose(analytical.sum(), numerical.sum(), rtol=rtol, atol=atol):\n",
     "on random Functions"),
    # 11.2 Sigmoid: exp(a) / (1 + exp(a)) is nan for a large a
    ("11.2", "custom.py", "        result = Tensor(1 / (1 + np.exp(-a._data)))\n",
     "        result = Tensor(np.exp(a._data) / (1 + np.exp(a._data)))\n", "compute s as 1 / (1 + exp(-a))"),
    # 11.2: the input saved, and the derivative written with exp: inf / inf = nan at large |a|
    ("11.2", "custom.py", ("        ctx.save_for_backward(result)\n",
                           "        s, = ctx.saved_tensors\n        return grad * s * (1 - s)\n"),
     ("        ctx.save_for_backward(a)\n",
      "        a, = ctx.saved_tensors\n        e = np.exp(-a._data)\n"
      "        return grad * Tensor(e / (1 + e) ** 2)\n"),
     "At large |a| exp overflows"),
    # 11.2: a float64 result for a float32 input
    ("11.2", "custom.py", "        result = Tensor(1 / (1 + np.exp(-a._data)))\n",
     "        result = Tensor(1 / (1 + np.exp(-a._data.astype(np.float64))))\n", "float32"),
    # Issue 35: wrong code that got a ✅, and the answer key's own slips.
    # 10.1: a creation.py of before issue 35, drawing with numpy's generator, not PyTorch's
    ("10.1", "creation.py",
     "    drawn = Tensor(_reference_empty(shape).uniform_(low, high, generator=_generator).numpy())\n",
     "    drawn = Tensor(np.random.default_rng(_generator.initial_seed()).uniform(low, high, shape)"
     ".astype(np.float32))\n", "creation.py is given"),
    # 10.2: targets wrapped around: target 2 of 2 classes is taken for class 0
    ("10.2", "nn.py", "    picked = (one_hot(targets, classes) * log_probs).sum()\n",
     "    picked = (one_hot(targets._data % classes, classes) * log_probs).sum()\n",
     "Target 2 is out of bounds."),
    # 10.2: a one-hot of one's own: numpy takes -1 for the last class, and words 2 its own way
    ("10.2", "nn.py", "    picked = (one_hot(targets, classes) * log_probs).sum()\n",
     "    picked = (Tensor(np.eye(classes, dtype=np.float32)[targets._data]) * log_probs).sum()\n",
     "PyTorch raises IndexError: Target 2 is out of bounds."),
    # 10.2: a loss of shape [1] (it crashed the checker)
    ("10.2", "nn.py", "    picked = (one_hot(targets, classes) * log_probs).sum()\n",
     "    picked = (one_hot(targets, classes) * log_probs).sum(dim=1, keepdim=True).sum(dim=0)\n",
     "and targets = [0, 2, 1, 1] has shape [1]"),
    # 10.2: keepdim missing on the max (it was blamed on the sum)
    ("10.2", "nn.py", "    shifted = logits - logits.max(dim=1, keepdim=True)\n",
     "    shifted = logits - logits.max(dim=1)\n", "in cross_entropy: shifted = logits - logits.max(dim=1))"),
    # 10.2: a wrong loss is shown with its logits and targets
    ("10.2", "nn.py", "    shifted = logits - logits.max(dim=1, keepdim=True)\n",
     "    shifted = logits - logits.max(dim=0, keepdim=True)\n",
     "with logits = [[2.0, -1.0, 0.5], [0.1, 0.2, 0.3], [-3.0, 4.0, 1.0], [1.0, 1.0, 1.0]] and targets"),
    # 10.3: no write when lr is 0: no version bump, so a graph saved before the step is not refused
    ("10.3", "optim.py", "                    p.sub_(self.lr * p.grad)\n",
     "                    if self.lr != 0:\n                        p.sub_(self.lr * p.grad)\n",
     "even when lr is 0"),
    # 10.3: requires_grad switched off and on around the write instead of no_grad
    ("10.3", "optim.py", SGD_STEP,
     "        for p in self.parameters:\n            if p.grad is not None:\n"
     "                p.requires_grad = False\n                p.sub_(self.lr * p.grad)\n"
     "                p.requires_grad = True\n", "a parameter the user froze"),
    # 10.3: a frozen parameter skipped, though it has a .grad
    ("10.3", "optim.py", "                if p.grad is not None:\n",
     "                if p.grad is not None and p.requires_grad:\n", "PyTorch's is [0.7, 1.7]"),
    # 11.1: np.allclose with the numerical Jacobian first: rtol measured against the analytical one
    ("11.1", "gradcheck.py", GRADCHECK_COMPARE,
     "            if not np.allclose(numerical, analytical, rtol=rtol, atol=atol):\n",
     "rtol is measured against the numerical entry"),
    # 11.1: backward run on an output that does not require grad
    ("11.1", "gradcheck.py",
     "                if output.requires_grad:           # else no backward can run: that column stays "
     "zeros\n                    function(*inputs).backward(seed)\n",
     "                function(*inputs).backward(seed)\n", "Run backward only when the output requires grad"),
    # 11.1: .grad put back only when gradcheck returns True
    ("11.1", "gradcheck.py",
     "        return True\n    finally:",
     "        for t, grad in zip(inputs, grads_before, strict=True):\n            t.grad = grad\n"
     "        return True\n    except GradcheckError:\n        raise\n    if False:",
     "also when it raises"),
    # 11.2: the result kept on ctx, not saved: a change in place goes unseen
    ("11.2", "custom.py", ("        ctx.save_for_backward(result)\n", "        s, = ctx.saved_tensors\n"),
     ("        ctx.s = result\n", "        s = ctx.s\n"), "not as an attribute of ctx"),
    # 11.2: the exponent clipped to ±500: 7e-218 where PyTorch's sigmoid is exactly 0
    ("11.2", "custom.py", "        result = Tensor(1 / (1 + np.exp(-a._data)))\n",
     "        result = Tensor(1 / (1 + np.exp(-np.clip(a._data, -500, 500))))\n",
     "no clipping of the exponent"),
    # 11.1: the output's numbers not copied: the identity's plus and minus are one array (issue 35, trial)
    ('11.1', 'gradcheck.py',
     ("                plus = function(*inputs)._data.copy()\n",
      "                minus = function(*inputs)._data.copy()\n"),
     ("                plus = function(*inputs)._data\n",
      "                minus = function(*inputs)._data\n"),
     "copy each output's numbers"),
    # 11.1: np.allclose with equal_nan=True: nan Jacobians pass (issue 35, a blind trial)
    ('11.1', 'gradcheck.py', "            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):\n",
     "            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol, equal_nan=True):\n",
     'without equal_nan'),
    # 11.2: sigmoid as 0.5 * (tanh(a / 2) + 1): 0 where PyTorch gives 2e-09 (issue 35, a blind trial)
    ('11.2', 'custom.py', '        result = Tensor(1 / (1 + np.exp(-a._data)))\n',
     '        result = Tensor(0.5 * (np.tanh(a._data / 2) + 1))\n',
     'not to 4 digits near 0'),
    # 11.1: a nudge relative to the entry (issue 35, a second trial)
    ('11.1', 'gradcheck.py',
     ("                flat[j] = original + eps\n",
      "                flat[j] = original - eps\n",
      "                numerical[j] = ((plus - minus) / (2 * eps)).reshape(-1)\n"),
     ("                h = eps * max(1.0, abs(original))\n"
      "                flat[j] = original + h\n",
      "                flat[j] = original - h\n",
      "                numerical[j] = ((plus - minus) / (2 * h)).reshape(-1)\n"),
     "not by eps times the entry's size"),
    # 11.1: the GradcheckError cut to its first line (issue 35, a second trial)
    ('11.1', 'gradcheck.py',
     '                raise GradcheckError(f"Jacobian mismatch for output 0 with respect to input {i},\\n"\n'
     '                                     f"numerical:{numerical}\\nanalytical:{analytical}\\n")\n',
     '                raise GradcheckError(f"Jacobian mismatch for output 0 with respect to input {i},")\n',
     'then analytical:'),
    # 11.2: sigmoid saving its input (issue 35, a second trial)
    ('11.2', 'custom.py',
     ('        ctx.save_for_backward(result)\n',
      '        s, = ctx.saved_tensors\n'),
     ('        ctx.save_for_backward(a)\n',
      '        a, = ctx.saved_tensors\n        s = Tensor(1 / (1 + np.exp(-a._data)))\n'),
     "PyTorch's sigmoid saves its result, not a"),
    # 11.2: sigmoid saving a detached copy of its result (issue 35, a second trial)
    ('11.2', 'custom.py',
     '        ctx.save_for_backward(result)\n',
     '        ctx.save_for_backward(result.detach())\n',
     'which is output 0 of Sigmoid'),
    # 11.1: .grad put back after a mismatch and after True, but not after an error in the function's
    # backward (the answer key until issue 35's fourth pass)
    ("11.1", "gradcheck.py",
     "        return True\n    finally:",
     "        for t, grad in zip(inputs, grads_before, strict=True):\n            t.grad = grad\n"
     "        return True\n    except GradcheckError:\n"
     "        for t, grad in zip(inputs, grads_before, strict=True):\n            t.grad = grad\n"
     "        raise\n    if False:",
     "an error in the function included"),
    # 11.1: the function's error turned into a GradcheckError
    ("11.1", "gradcheck.py", "        return True\n    finally:",
     "        return True\n    except ZeroDivisionError as error:\n"
     "        raise GradcheckError(str(error)) from error\n    finally:",
     "reach the caller as it is"),
]
MISTAKES += [  # issue 35, a fifth trial: what a layer or an optimizer must not keep
    ("10.1", "nn.py", "        return x @ transpose(self.weight) + self.bias",
     "        self.last_input = x\n        return x @ transpose(self.weight) + self.bias",
     "A layer keeps its parameters, not what it was called with"),
    ("10.3", "optim.py", "        with no_grad():\n            for p in self.parameters:",
     "        self.last_grads = [p.grad for p in self.parameters]\n"
     "        with no_grad():\n            for p in self.parameters:",
     "The step reads each p.grad, and keeps none of them"),
]
