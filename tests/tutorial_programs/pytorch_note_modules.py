# Follows the "Modules" note (pytorch/pytorch, docs/source/notes/modules.rst): a custom module with
# parameters, modules as building blocks (named_children, named_modules, ModuleList, ModuleDict),
# moving a module to another dtype, initialization with apply, training with an optimizer,
# train and eval modes, module state (state_dict, load_state_dict, persistent and non-persistent
# buffers) and forward hooks. Changes: the CUDA lines (device='cuda') run on the CPU, and the
# half-precision, skip_init/orthogonal_ and meta-device examples are left out (mini_autograd has no
# float16, no QR decomposition and no meta device); the backward-hook half of the hooks example is
# left out (mini_autograd has no register_full_backward_hook); the note's call of the float64 net
# with 5 inputs and no activation (which fails) is made with 4 and 'lrelu'; the training loop runs
# 100 steps (10,000 there); files go to a temporary folder; the values the note shows are printed.
# ruff: noqa: UP032  (the public program's own style, kept)
import os
import tempfile

import torch
from torch import nn
import torch.nn.functional as F

folder = tempfile.mkdtemp()


class MyLinear(nn.Module):
  def __init__(self, in_features, out_features):
    super().__init__()
    self.weight = nn.Parameter(torch.randn(in_features, out_features))
    self.bias = nn.Parameter(torch.randn(out_features))

  def forward(self, input):
    return (input @ self.weight) + self.bias


m = MyLinear(4, 3)
sample_input = torch.randn(4)
print(m(sample_input))

for parameter in m.named_parameters():
  print(parameter)

net = nn.Sequential(
  MyLinear(4, 3),
  nn.ReLU(),
  MyLinear(3, 1)
)

sample_input = torch.randn(4)
print(net(sample_input))


class Net(nn.Module):
  def __init__(self):
    super().__init__()
    self.l0 = MyLinear(4, 3)
    self.l1 = MyLinear(3, 1)
  def forward(self, x):
    x = self.l0(x)
    x = F.relu(x)
    x = self.l1(x)
    return x


net = Net()
for child in net.named_children():
  print(child)


class BigNet(nn.Module):
  def __init__(self):
    super().__init__()
    self.l1 = MyLinear(5, 4)
    self.net = Net()
  def forward(self, x):
    return self.net(self.l1(x))


big_net = BigNet()
for module in big_net.named_modules():
  print(module)


class DynamicNet(nn.Module):
  def __init__(self, num_layers):
    super().__init__()
    self.linears = nn.ModuleList(
      [MyLinear(4, 4) for _ in range(num_layers)])
    self.activations = nn.ModuleDict({
      'relu': nn.ReLU(),
      'lrelu': nn.LeakyReLU()
    })
    self.final = MyLinear(4, 1)
  def forward(self, x, act):
    for linear in self.linears:
      x = linear(x)
      x = self.activations[act](x)
    x = self.final(x)
    return x


dynamic_net = DynamicNet(3)
sample_input = torch.randn(4)
output = dynamic_net(sample_input, 'relu')
print(output)

for parameter in dynamic_net.named_parameters():
  print(parameter)

# Move all parameters to a CUDA device (here: the CPU)
dynamic_net.to(device='cpu')

# Change precision of all parameters.
dynamic_net.to(dtype=torch.float64)
print(dynamic_net(torch.randn(4, dtype=torch.float64), 'lrelu'))


# Define a function to initialize Linear weights.
# Note that no_grad() is used here to avoid tracking this computation in the autograd graph.
@torch.no_grad()
def init_weights(m):
  if isinstance(m, nn.Linear):
    nn.init.xavier_normal_(m.weight)
    m.bias.fill_(0.0)


# Apply the function recursively on the module and its submodules.
dynamic_net.apply(init_weights)

# Create the network (from previous section) and optimizer
net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=1e-4, weight_decay=1e-2, momentum=0.9)

# Run a sample training loop that "teaches" the network
# to output the constant zero function
for _ in range(100):
  input = torch.randn(4)
  output = net(input)
  loss = torch.abs(output)
  net.zero_grad()
  loss.backward()
  optimizer.step()

# After training, switch the module to eval mode to do inference, compute performance metrics, etc.
# (see discussion below for a description of training and evaluation modes)
net.eval()
print(net.l1.weight)


class ModalModule(nn.Module):
  def __init__(self):
    super().__init__()

  def forward(self, x):
    if self.training:
      # Add a constant only in training mode.
      return x + 1.
    else:
      return x


m = ModalModule()
x = torch.randn(4)

print('training mode output: {}'.format(m(x)))

m.eval()
print('evaluation mode output: {}'.format(m(x)))

# Save the module
torch.save(net.state_dict(), os.path.join(folder, 'net.pt'))

# Load the module later on
new_net = Net()
print(new_net.load_state_dict(torch.load(os.path.join(folder, 'net.pt'))))


class RunningMean(nn.Module):
  def __init__(self, num_features, momentum=0.9):
    super().__init__()
    self.momentum = momentum
    self.register_buffer('mean', torch.zeros(num_features))
  def forward(self, x):
    self.mean = self.momentum * self.mean + (1.0 - self.momentum) * x
    return self.mean


m = RunningMean(4)
for _ in range(10):
  input = torch.randn(4)
  m(input)

print(m)
print(m.state_dict())

# Serialized form will contain the 'mean' tensor
torch.save(m.state_dict(), os.path.join(folder, 'mean.pt'))

m_loaded = RunningMean(4)
m_loaded.load_state_dict(torch.load(os.path.join(folder, 'mean.pt')))
assert(torch.all(m.mean == m_loaded.mean))


class RunningMean(nn.Module):
  def __init__(self, num_features, momentum=0.9):
    super().__init__()
    self.momentum = momentum
    self.register_buffer('mean', torch.zeros(num_features), persistent=False)
  def forward(self, x):
    self.mean = self.momentum * self.mean + (1.0 - self.momentum) * x
    return self.mean


m = RunningMean(4)
print(m.state_dict())

m = RunningMean(4)

# Buffers are moved to the device (here: the CPU) along with the parameters.
m.to(device='cpu')
print(m.mean)


class MyModule(nn.Module):
  def __init__(self):
    super().__init__()
    self.param1 = nn.Parameter(torch.randn(4))
    self.param2 = nn.Parameter(torch.randn(4, 3))
    self.register_buffer('buffer1', torch.randn(4), persistent=False)
    self.register_buffer('buffer2', torch.randn(4))

  def forward(self, x):
    return x


m = MyModule()
print(list(m.named_parameters()))
print(list(m.named_buffers()))
print(m.state_dict())

torch.manual_seed(1)


def forward_pre_hook(m, inputs):
  # Allows for examination and modification of the input before the forward pass.
  # Note that inputs are always wrapped in a tuple.
  input = inputs[0]
  return input + 1.


def forward_hook(m, inputs, output):
  # Allows for examination of inputs / outputs and modification of the outputs
  # after the forward pass. Note that inputs are always wrapped in a tuple while outputs
  # are passed as-is.

  # Residual computation a la ResNet.
  return output + inputs[0]


# Create sample module & input.
m = nn.Linear(3, 3)
x = torch.randn(2, 3, requires_grad=True)

# ==== Demonstrate forward hooks. ====
# Run input through module before and after adding hooks.
print('output with no forward hooks: {}'.format(m(x)))

# Note that the modified input results in a different output.
forward_pre_hook_handle = m.register_forward_pre_hook(forward_pre_hook)
print('output with forward pre hook: {}'.format(m(x)))

# Note the modified output.
forward_hook_handle = m.register_forward_hook(forward_hook)
print('output with both forward hooks: {}'.format(m(x)))

# Remove hooks; note that the output here matches the output before adding hooks.
forward_pre_hook_handle.remove()
forward_hook_handle.remove()
print('output after removing forward hooks: {}'.format(m(x)))

# ==== Demonstrate backward hooks. ====
m(x).sum().backward()
print('x.grad with no backwards hook: {}'.format(x.grad))
