"""``BatchNorm1d`` and ``BatchNorm2d``: normalise each channel over the batch, and keep running statistics.

PyTorch counterpart: torch/nn/modules/batchnorm.py.
"""
from .. import creation, _dtype
from . import functional as F, init
from .module import Module
from .parameter import Parameter


class _BatchNorm(Module):
    """Learnable ``weight`` and ``bias`` per channel (``affine``), and the buffers ``running_mean``,
    ``running_var`` and ``num_batches_tracked`` (``track_running_stats``).

    In training the batch's mean and variance normalise, and the running statistics move
    towards them by ``momentum`` (the variance's unbiased estimate; ``momentum=None``: a
    cumulative average). After ``eval()`` the running statistics normalise.
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        factory = {"device": device, "dtype": dtype}
        if self.affine:
            self.weight = Parameter(creation.empty(num_features, **factory))
            if bias:
                self.bias = Parameter(creation.empty(num_features, **factory))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            self.register_buffer("running_mean", creation.zeros(num_features, **factory))
            self.register_buffer("running_var", creation.ones(num_features, **factory))
            self.register_buffer("num_batches_tracked", creation.tensor(0, dtype=_dtype.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    _version = 2        # version 2 added num_batches_tracked (torch/nn/modules/batchnorm.py: _NormBase)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """A state dict of before version 2 (a plain ``dict`` has no version) may lack
        ``num_batches_tracked``: this module's own is taken then, as PyTorch's _NormBase does."""
        version = local_metadata.get("version", None)
        if (version is None or version < 2) and self.track_running_stats:
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = (self.num_batches_tracked if self.num_batches_tracked is not None
                                   else creation.tensor(0, dtype=_dtype.int64))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def forward(self, input):
        self._check_input_dim(input)
        exponential_average_factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:           # a cumulative moving average
                exponential_average_factor = 1.0 / float(self.num_batches_tracked)
            else:                               # an exponential moving average
                exponential_average_factor = self.momentum
        # the batch's statistics in training, and in evaluation when there are no running ones
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        # the running statistics are passed only to be updated (training) or used (evaluation)
        use_buffers = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_buffers else None,
                            self.running_var if use_buffers else None, self.weight, self.bias, bn_training,
                            exponential_average_factor, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch norm of (N, C) or (N, C, L) input."""

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch norm of (N, C, H, W) input."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")
