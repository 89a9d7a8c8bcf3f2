"""Misuse raises PyTorch's exception type with PyTorch's message.

Every expected message below is the literal text real PyTorch 2.13 gives for
the same code (no torch import here). Messages that end in PyTorch's hint to
``torch.autograd.set_detect_anomaly`` (outside the subset) are compared up to
`` Hint:``. Every error must also be a plain built-in exception raised on
purpose, never a numpy error from deep inside.
"""
import warnings

import numpy as np
import pytest

import mini_autograd as torch

CASES = []


def case(id, error, message, prefix=False):
    """Register ``fn`` as a misuse that must raise ``error`` with ``message``."""

    def register(fn):
        CASES.append(pytest.param(fn, error, message, prefix, id=id))
        return fn

    return register


def leaf(*shape, dtype=None):
    return torch.ones(*shape, dtype=dtype, requires_grad=True)


# ----------------------------------------------------------------- backward
@case("backward_non_scalar", RuntimeError, "grad can be implicitly created only for scalar outputs")
def _():
    (leaf(3) * 2).backward()


@case("backward_twice", RuntimeError,
      "Trying to backward through the graph a second time (or directly access saved tensors after they "
      "have already been freed). Saved intermediate values of the graph are freed when you call "
      ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
      "graph a second time or if you need to access saved tensors after calling backward.")
def _():
    y = (leaf(3) * leaf(3)).sum()
    y.backward()
    y.backward()


@case("backward_twice_saved_output", RuntimeError, "Trying to backward through the graph a second time",
      prefix=True)
def _():
    y = leaf(3).exp().sum()
    y.backward()
    y.backward()


@case("grad_then_backward_twice", RuntimeError, "Trying to backward through the graph a second time",
      prefix=True)
def _():
    x = leaf(3)
    y = (x * x).sum()
    torch.autograd.grad(y, x)
    y.backward()


@case("saved_tensor_after_free", RuntimeError, "Trying to backward through the graph a second time",
      prefix=True)
def _():
    x = leaf(3)
    y = x * x
    y.sum().backward()
    _ = y.grad_fn._saved_self


@case("backward_no_grad_fn", RuntimeError,
      "element 0 of tensors does not require grad and does not have a grad_fn")
def _():
    torch.ones(()).backward()


@case("backward_made_under_no_grad", RuntimeError,
      "element 0 of tensors does not require grad and does not have a grad_fn")
def _():
    x = leaf(3)
    with torch.no_grad():
        y = (x * 2).sum()
    y.backward()


@case("grad_no_grad_fn", RuntimeError,
      "element 0 of tensors does not require grad and does not have a grad_fn")
def _():
    torch.autograd.grad(torch.ones(()), torch.tensor(1.0, requires_grad=True))


@case("backward_gradient_shape", RuntimeError,
      "Mismatch in shape: grad_output[0] has a shape of torch.Size([3, 2]) and output[0] has a shape "
      "of torch.Size([2, 3]).")
def _():
    (leaf(2, 3) * 2).backward(torch.ones(3, 2))


@case("backward_gradient_length", RuntimeError,
      "Mismatch in shape: grad_output[0] has a shape of torch.Size([4]) and output[0] has a shape of "
      "torch.Size([3]).")
def _():
    (leaf(3) * 2).backward(torch.ones(4))


@case("backward_gradient_broadcastable_is_still_wrong", RuntimeError,
      "Mismatch in shape: grad_output[0] has a shape of torch.Size([1]) and output[0] has a shape of "
      "torch.Size([3]).")
def _():
    (leaf(3) * 2).backward(torch.ones(1))


@case("grad_outputs_shape", RuntimeError,
      "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of "
      "torch.Size([3]).")
def _():
    x = leaf(3)
    torch.autograd.grad(x * 2, x, grad_outputs=torch.ones(2))


@case("backward_gradient_is_a_list", TypeError, "gradients can be either Tensors or None, but got float")
def _():
    (leaf(3) * 2).backward([1.0, 1.0, 1.0])


@case("grad_unused_input", RuntimeError,
      "The differentiated Tensor at index 1 appears to not have been used in the graph. Set "
      "allow_unused=True if this is the desired behavior.")
def _():
    x, w = leaf(3), leaf(3)
    torch.autograd.grad((x * 2).sum(), [x, w])


@case("grad_input_without_grad", RuntimeError, "One of the differentiated Tensors does not require grad")
def _():
    torch.autograd.grad((leaf(3) * 2).sum(), [torch.ones(3)])


@case("backward_inputs_empty", RuntimeError, "`inputs` argument to `backward()` cannot be empty.")
def _():
    (leaf(3) * 2).sum().backward(inputs=[])


# ------------------------------------------------------------ requires_grad
@case("int_tensor_requires_grad_kwarg", RuntimeError,
      "Only Tensors of floating point and complex dtype can require gradients")
def _():
    torch.tensor([1, 2], requires_grad=True)


@case("int_zeros_requires_grad_kwarg", RuntimeError,
      "Only Tensors of floating point and complex dtype can require gradients")
def _():
    torch.zeros(2, dtype=torch.int64, requires_grad=True)


@case("int_requires_grad_method", RuntimeError, "only Tensors of floating point dtype can require gradients")
def _():
    torch.tensor([1, 2]).requires_grad_()


@case("bool_requires_grad_method", RuntimeError, "only Tensors of floating point dtype can require gradients")
def _():
    torch.tensor([True]).requires_grad_()


@case("int_requires_grad_attribute", RuntimeError,
      "only Tensors of floating point and complex dtype can require gradients")
def _():
    t = torch.tensor([1, 2])
    t.requires_grad = True


@case("non_leaf_requires_grad_method", RuntimeError,
      "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
      "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
def _():
    (leaf(3) * 2).requires_grad_(False)


@case("non_leaf_requires_grad_attribute", RuntimeError,
      "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
      "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
def _():
    y = leaf(3) * 2
    y.requires_grad = False


@case("retain_grad_without_requires_grad", RuntimeError,
      "can't retain_grad on Tensor that has requires_grad=False")
def _():
    torch.ones(3).retain_grad()


@case("register_hook_without_requires_grad", RuntimeError,
      "cannot register a hook on a tensor that doesn't require gradient")
def _():
    torch.ones(3).register_hook(lambda g: g)


@case("numpy_of_requires_grad", RuntimeError,
      "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
def _():
    leaf(3).numpy()


@case("assign_grad_wrong_type", TypeError,
      "assigned grad expected to be a Tensor or None but got grad of type int")
def _():
    leaf(3).grad = 5


@case("assign_grad_wrong_shape", RuntimeError,
      "attempting to assign a gradient of size '[2]' to a tensor of size '[3]'. Please ensure that the "
      "gradient and the tensor are the same size")
def _():
    leaf(3).grad = torch.ones(2)


# ------------------------------------------------------------------ in-place
@case("leaf_inplace_add_", RuntimeError,
      "a leaf Variable that requires grad is being used in an in-place operation.")
def _():
    leaf(3).add_(1)


@case("leaf_inplace_mul_", RuntimeError,
      "a leaf Variable that requires grad is being used in an in-place operation.")
def _():
    leaf(3).mul_(2)


@case("leaf_inplace_operator", RuntimeError,
      "a leaf Variable that requires grad is being used in an in-place operation.")
def _():
    x = leaf(3)
    x -= 1


@case("version_saved_input", RuntimeError,
      "one of the variables needed for gradient computation has been modified by an inplace operation: "
      "[torch.FloatTensor [3]], which is output 0 of Add, is at version 1; expected version 0 instead.",
      prefix=True)
def _():
    a = leaf(3)
    b = a * 2
    c = b * b
    b.add_(1)
    c.sum().backward()


@case("version_saved_output", RuntimeError,
      "one of the variables needed for gradient computation has been modified by an inplace operation: "
      "[torch.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected version 0 instead.",
      prefix=True)
def _():
    b = leaf(3).exp()
    b.add_(1)
    b.sum().backward()


@case("version_leaf_modified_under_no_grad", RuntimeError,
      "one of the variables needed for gradient computation has been modified by an inplace operation: "
      "[torch.DoubleTensor [2, 2]] is at version 1; expected version 0 instead. Hint:", prefix=True)
def _():
    a = leaf(2, 2, dtype=torch.float64)
    b = a.tanh() * a
    with torch.no_grad():
        a.mul_(2)
    b.sum().backward()


# ---------------------------------------------------------------- inference
@case("inference_tensor_saved_for_backward", RuntimeError,
      "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
      "mode in computation tracked by autograd. To work around this, you can make a clone to get a "
      "normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
      "`torch.inference_mode()`.")
def _():
    with torch.inference_mode():
        t = torch.ones(3)
    leaf(3) * t


@case("inference_tensor_inplace_outside", RuntimeError,
      "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to "
      "get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for "
      "more details.")
def _():
    with torch.inference_mode():
        t = torch.ones(3)
    t.add_(1)


@case("inference_tensor_requires_grad_outside", RuntimeError,
      "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
def _():
    with torch.inference_mode():
        t = torch.ones(3)
    t.requires_grad_()


# ------------------------------------------------------------- scalars, bool
@case("item_of_three", RuntimeError, "a Tensor with 3 elements cannot be converted to Scalar")
def _():
    torch.ones(3).item()


@case("item_of_empty", RuntimeError, "a Tensor with 0 elements cannot be converted to Scalar")
def _():
    torch.ones(0).item()


@case("bool_ambiguous", RuntimeError, "Boolean value of Tensor with more than one value is ambiguous")
def _():
    bool(torch.ones(3))


@case("len_of_0d", TypeError, "len() of a 0-d tensor")
def _():
    len(torch.tensor(1.0))


# ------------------------------------------------------------ creation input
@case("ragged_dim1", ValueError, "expected sequence of length 2 at dim 1 (got 1)")
def _():
    torch.tensor([[1, 2], [3]])


@case("ragged_dim1_longer", ValueError, "expected sequence of length 1 at dim 1 (got 2)")
def _():
    torch.tensor([[1], [2, 3], [4]])


@case("ragged_dim2", ValueError, "expected sequence of length 2 at dim 2 (got 1)")
def _():
    torch.tensor([[[1, 2], [3, 4]], [[1, 2], [3]]])


@case("ragged_dim2_first", ValueError, "expected sequence of length 2 at dim 2 (got 1)")
def _():
    torch.tensor([[[1, 2]], [[3]]])


@case("ragged_number_then_list", TypeError, "'list' object cannot be interpreted as an integer")
def _():
    torch.tensor([1, [2]])


@case("ragged_list_then_number", TypeError, "not a sequence")
def _():
    torch.tensor([[1], 2])


@case("tensor_of_str", TypeError, "new(): invalid data type 'str'")
def _():
    torch.tensor("abc")


@case("tensor_of_none", RuntimeError, "Could not infer dtype of NoneType")
def _():
    torch.tensor(None)


@case("tensor_of_object", RuntimeError, "Could not infer dtype of object")
def _():
    torch.tensor([object()])


@case("tensor_of_dict", RuntimeError, "Could not infer dtype of dict")
def _():
    torch.tensor({1: 2})


@case("zeros_of_str", TypeError, "zeros(): argument 'size' (position 1) must be tuple of ints, not str")
def _():
    torch.zeros("a")


@case("ones_of_float", TypeError, "ones(): argument 'size' (position 1) must be tuple of ints, not float")
def _():
    torch.ones(2.5)


# ------------------------------------------------------- binary op shapes/types
@case("add_shapes", RuntimeError,
      "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1")
def _():
    torch.ones(2, 3) + torch.ones(4)


@case("mul_shapes_3d", RuntimeError,
      "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1")
def _():
    torch.ones(2, 3, 4) * torch.ones(5, 4)


@case("div_shapes", RuntimeError,
      "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0")
def _():
    torch.ones(3) / torch.ones(2)


@case("pow_shapes", RuntimeError,
      "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0")
def _():
    torch.ones(3) ** torch.ones(2)


@case("sub_shapes_requires_grad", RuntimeError,
      "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0")
def _():
    leaf(3) - torch.ones(2)


@case("mul_shapes_requires_grad", RuntimeError,
      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1")
def _():
    leaf(3, 2) * leaf(2, 3)


@case("lt_shapes", RuntimeError,
      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")
def _():
    _ = torch.ones(2) < torch.ones(3)


@case("eq_shapes", RuntimeError,
      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")
def _():
    _ = torch.ones(2) == torch.ones(3)


@case("ge_shapes_2d", RuntimeError,
      "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1")
def _():
    _ = torch.ones(2, 3) >= torch.ones(4)


@case("ne_shapes_numpy", RuntimeError,
      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")
def _():
    _ = torch.ones(2) != np.ones(3)


@case("add_str", TypeError, "unsupported operand type(s) for +: 'Tensor' and 'str'")
def _():
    torch.ones(3) + "a"


@case("radd_str", TypeError, 'can only concatenate str (not "Tensor") to str')
def _():
    "a" + torch.ones(3)


@case("sub_str", TypeError, "unsupported operand type(s) for -: 'Tensor' and 'str'")
def _():
    torch.ones(3) - "a"


@case("rsub_str", TypeError, "unsupported operand type(s) for -: 'str' and 'Tensor'")
def _():
    "a" - torch.ones(3)


@case("mul_none", TypeError, "unsupported operand type(s) for *: 'Tensor' and 'NoneType'")
def _():
    torch.ones(3) * None


@case("div_str", TypeError, "unsupported operand type(s) for /: 'Tensor' and 'str'")
def _():
    torch.ones(3) / "a"


@case("pow_str", TypeError, "unsupported operand type(s) for ** or pow(): 'Tensor' and 'str'")
def _():
    torch.ones(3) ** "a"


@case("matmul_str", TypeError, "unsupported operand type(s) for @: 'Tensor' and 'str'")
def _():
    torch.ones(3) @ "a"


# --------------------------------------------------------- non-tensor inputs
@case("exp_list", TypeError, "exp(): argument 'input' (position 1) must be Tensor, not list")
def _():
    torch.exp([1, 2])


@case("log_float", TypeError, "log(): argument 'input' (position 1) must be Tensor, not float")
def _():
    torch.log(2.0)


@case("tanh_list", TypeError, "tanh(): argument 'input' (position 1) must be Tensor, not list")
def _():
    torch.tanh([1.0])


@case("sigmoid_list", TypeError, "sigmoid(): argument 'input' (position 1) must be Tensor, not list")
def _():
    torch.sigmoid([1.0])


@case("relu_list", TypeError, "relu(): argument 'input' (position 1) must be Tensor, not list")
def _():
    torch.relu([1.0])


@case("sum_list", TypeError, "sum(): argument 'input' (position 1) must be Tensor, not list")
def _():
    torch.sum([1, 2])


@case("mean_list", TypeError, "mean(): argument 'input' (position 1) must be Tensor, not list")
def _():
    torch.mean([1.0, 2.0])


@case("matmul_list", TypeError, "matmul(): argument 'input' (position 1) must be Tensor, not list")
def _():
    torch.matmul([1.0], torch.ones(1))


@case("mm_list", TypeError, "mm(): argument 'input' (position 1) must be Tensor, not list")
def _():
    torch.mm([[1.0]], torch.ones(1, 1))


@case("cat_of_a_tensor", TypeError,
      "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
def _():
    torch.cat(torch.ones(2))


@case("cat_of_lists", TypeError, "expected Tensor as element 0 in argument 0, but got list")
def _():
    torch.cat([[1.0], [2.0]])


# ----------------------------------------------------------------- matmul family
@case("mm_shapes", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")
def _():
    torch.ones(2, 3).mm(torch.ones(2, 3))


@case("mm_1d_first", RuntimeError, "self must be a matrix")
def _():
    torch.mm(torch.ones(3), torch.ones(3, 2))


@case("mm_1d_second", RuntimeError, "mat2 must be a matrix")
def _():
    torch.mm(torch.ones(2, 3), torch.ones(3))


@case("mm_dtypes", RuntimeError, "expected m1 and m2 to have the same dtype, but got: float != double")
def _():
    torch.mm(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64))


@case("matmul_2d_2d", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")
def _():
    torch.ones(2, 3) @ torch.ones(4, 5)


@case("matmul_2d_2d_requires_grad", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")
def _():
    leaf(2, 3) @ leaf(4, 5)


@case("matmul_1d_2d", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (1x2 and 3x3)")
def _():
    torch.ones(2) @ torch.ones(3, 3)


@case("matmul_2d_1d", RuntimeError, "size mismatch, got input (2), mat (2x3), vec (2)")
def _():
    torch.ones(2, 3) @ torch.ones(2)


@case("matmul_1d_1d", RuntimeError,
      "inconsistent tensor size, expected tensor [2] and src [3] to have the same number of elements, "
      "but got 2 and 3 elements respectively")
def _():
    torch.ones(2) @ torch.ones(3)


@case("matmul_0d", RuntimeError, "both arguments to matmul need to be at least 1D, but they are 0D and 1D")
def _():
    torch.tensor(1.0) @ torch.ones(2)


@case("mv_shapes", RuntimeError, "size mismatch, got input (2), mat (2x3), vec (2)")
def _():
    torch.mv(torch.ones(2, 3), torch.ones(2))


@case("mv_dims", RuntimeError, "vector + matrix @ vector expected, got 1, 1, 1")
def _():
    torch.mv(torch.ones(3), torch.ones(3))


@case("dot_sizes", RuntimeError,
      "inconsistent tensor size, expected tensor [2] and src [3] to have the same number of elements, "
      "but got 2 and 3 elements respectively")
def _():
    torch.dot(torch.ones(2), torch.ones(3))


@case("dot_2d", RuntimeError, "1D tensors expected, but got 2D and 1D tensors")
def _():
    torch.dot(torch.ones(2, 2), torch.ones(2))


# ----------------------------------------------------------- shapes, indexing
@case("cat_sizes", RuntimeError,
      "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor "
      "number 1 in the list.")
def _():
    torch.cat([torch.ones(2, 3), torch.ones(2, 4)])


@case("stack_sizes", RuntimeError,
      "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 4] at entry 1")
def _():
    torch.stack([torch.ones(2, 3), torch.ones(2, 4)])


@case("view_numel", RuntimeError, "shape '[4]' is invalid for input of size 6")
def _():
    torch.ones(2, 3).view(4)


@case("reshape_numel", RuntimeError, "shape '[4, 2]' is invalid for input of size 6")
def _():
    torch.ones(2, 3).reshape(4, 2)


@case("view_of_transposed", RuntimeError,
      "view size is not compatible with input tensor's size and stride (at least one dimension spans "
      "across two contiguous subspaces). Use .reshape(...) instead.")
def _():
    torch.ones(2, 3).t().view(6)


@case("expand_sizes", RuntimeError,
      "The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension "
      "0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]")
def _():
    torch.ones(2, 3).expand(4, 3)


@case("t_of_3d", RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is 3D")
def _():
    torch.ones(2, 2, 2).t()


@case("permute_duplicate", RuntimeError, "permute(): duplicate dims are not allowed.")
def _():
    torch.ones(2, 3).permute(0, 0)


@case("index_out_of_range", IndexError, "index 5 is out of bounds for dimension 0 with size 2")
def _():
    torch.ones(2, 3)[5]


@case("index_list_out_of_range", IndexError, "index 5 is out of bounds for dimension 0 with size 2")
def _():
    torch.ones(2, 3)[[0, 5]]


@case("too_many_indices", IndexError, "too many indices for tensor of dimension 2")
def _():
    torch.ones(2, 3)[0, 0, 0]


@case("float_index_tensor", IndexError, "tensors used as indices must be long, int, byte or bool tensors")
def _():
    torch.ones(3)[torch.tensor([0.0])]


@case("sum_dim_out_of_range", IndexError,
      "Dimension out of range (expected to be in range of [-2, 1], but got 2)")
def _():
    torch.ones(2, 3).sum(2)


@case("transpose_dim_out_of_range", IndexError,
      "Dimension out of range (expected to be in range of [-2, 1], but got 3)")
def _():
    torch.ones(2, 3).transpose(0, 3)


@case("unsqueeze_dim_out_of_range", IndexError,
      "Dimension out of range (expected to be in range of [-3, 2], but got 3)")
def _():
    torch.ones(2, 1).unsqueeze(3)


@case("mean_of_int", RuntimeError,
      "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
      "dtype. Got: Long")
def _():
    torch.tensor([1, 2]).mean()


@case("max_of_empty", RuntimeError,
      "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
      "with the 'dim' argument.")
def _():
    torch.ones(0).max()


# ----------------------------------------------------------------- the tests
@pytest.mark.parametrize("fn, error, message, prefix", CASES)
def test_misuse_raises_pytorch_error(fn, error, message, prefix):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)       # no numpy warning on the way
        with pytest.raises(Exception) as info:
            fn()
    err = info.value
    assert type(err) is error, f"{type(err).__module__}.{type(err).__name__}: {err}"
    assert type(err).__module__ == "builtins", "must be a plain built-in exception"
    text = str(err)
    if prefix:
        assert text.startswith(message), text
    else:
        assert text == message


def test_every_case_id_is_unique():
    ids = [p.id for p in CASES]
    assert len(ids) == len(set(ids))


def test_errors_do_not_come_from_numpy():
    """A few errors checked for their origin: the raising frame is not inside numpy."""
    for fn in (lambda: torch.ones(2, 3) + torch.ones(4),
               lambda: torch.ones(2, 3) @ torch.ones(2, 3),
               lambda: (leaf(2, 3) * 2).backward(torch.ones(3, 2)),
               lambda: torch.tensor([[1, 2], [3]]),
               lambda: torch.ones(2) < torch.ones(3),
               lambda: torch.ones(2) == torch.ones(3),
               lambda: leaf(2, 3).mm(leaf(2, 3))):
        with pytest.raises(Exception) as info:
            fn()
        exc = info.value
        assert type(exc).__module__ == "builtins"
        tb = exc.__traceback__
        while tb.tb_next is not None:
            tb = tb.tb_next
        assert "numpy" not in tb.tb_frame.f_code.co_filename, (type(exc), exc)


# -------------------------------------------------------------- the warning
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information.")


def test_non_leaf_grad_warns_with_pytorch_text():
    x = leaf(3)
    y = x * 2
    with pytest.warns(UserWarning) as record:
        assert y.grad is None
    assert len(record) == 1
    assert str(record[0].message) == NON_LEAF_GRAD_WARNING
    assert str(record[0].message).startswith(
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed.")
    assert record[0].filename == __file__          # points at the user's line


def test_non_leaf_grad_after_backward_still_none_and_warns():
    x = leaf(3)
    y = x * 2
    y.sum().backward()
    with pytest.warns(UserWarning, match="not a leaf Tensor"):
        assert y.grad is None


def test_no_warning_for_leaf_or_retained_grad():
    x = leaf(3)
    y = x * 2
    y.retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.grad is None
        assert y.grad is None
        assert torch.ones(3).grad is None
        y.sum().backward()
        np.testing.assert_array_equal(y.grad.numpy(), np.ones(3))


def test_no_wrong_gradient_from_mismatched_backward_gradient():
    """A rejected backward leaves .grad untouched (no partial, wrong accumulation)."""
    x = leaf(2, 3)
    y = x * 2
    with pytest.raises(RuntimeError):
        y.backward(torch.ones(3, 2))
    assert x.grad is None
    with pytest.raises(RuntimeError):
        y.backward(torch.ones(1, 3))      # broadcastable, still not accepted
    assert x.grad is None
