# Follows the two-layer-net forms of "Learning PyTorch with Examples" (pytorch/tutorials,
# beginner_source/examples_tensor/two_layer_net_tensor.py, examples_autograd/
# two_layer_net_autograd.py and two_layer_net_custom_function.py, examples_nn/
# two_layer_net_nn.py, two_layer_net_optim.py, two_layer_net_module.py, and the
# two-layer dynamic_net.py): a ReLU network, 64 x 1000 -> 100 -> 10. The public
# programs train for 500 steps each; this test runs 100 of each. Each loop starts from the same
# numbers in both libraries (PyTorch's random numbers), but float32 rounding, which differs
# between PyTorch's kernels and numpy's (matrix products, SGD's update), grows over 100 steps of
# SGD with momentum on the dynamic net's jumpy loss: 17.342 vs 17.338 at its last step (on an
# Intel Xeon), hence the tolerance below.
# compare: atol=1e-2
import random
import torch

dtype = torch.float
device = torch.device("cpu")
N, D_in, H, D_out = 64, 1000, 100, 10
STEPS = 100

# --- tensors, gradients by hand
x = torch.randn(N, D_in, device=device, dtype=dtype)
y = torch.randn(N, D_out, device=device, dtype=dtype)
w1 = torch.randn(D_in, H, device=device, dtype=dtype)
w2 = torch.randn(H, D_out, device=device, dtype=dtype)
learning_rate = 1e-6
for t in range(STEPS):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum().item()
    if t % 20 == 19:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)
    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2

# --- autograd
w1 = torch.randn(D_in, H, device=device, dtype=dtype, requires_grad=True)
w2 = torch.randn(H, D_out, device=device, dtype=dtype, requires_grad=True)
for t in range(STEPS):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 20 == 19:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()


# --- a custom ReLU Function
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


w1 = torch.randn(D_in, H, device=device, dtype=dtype, requires_grad=True)
w2 = torch.randn(H, D_out, device=device, dtype=dtype, requires_grad=True)
for t in range(STEPS):
    relu = MyReLU.apply
    y_pred = relu(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 20 == 19:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()

# --- nn
model = torch.nn.Sequential(
    torch.nn.Linear(D_in, H),
    torch.nn.ReLU(),
    torch.nn.Linear(H, D_out),
)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-4
for t in range(STEPS):
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    if t % 20 == 19:
        print(t, loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad

# --- optim (Adam)
model = torch.nn.Sequential(
    torch.nn.Linear(D_in, H),
    torch.nn.ReLU(),
    torch.nn.Linear(H, D_out),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
for t in range(STEPS):
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    if t % 20 == 19:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


# --- a custom Module
class TwoLayerNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super().__init__()
        self.linear1 = torch.nn.Linear(D_in, H)
        self.linear2 = torch.nn.Linear(H, D_out)

    def forward(self, x):
        h_relu = self.linear1(x).clamp(min=0)
        return self.linear2(h_relu)


model = TwoLayerNet(D_in, H, D_out)
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
for t in range(STEPS):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 20 == 19:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


# --- the two-layer dynamic net: 0 to 3 hidden layers sharing one Linear, chosen at random
class DynamicNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super().__init__()
        self.input_linear = torch.nn.Linear(D_in, H)
        self.middle_linear = torch.nn.Linear(H, H)
        self.output_linear = torch.nn.Linear(H, D_out)

    def forward(self, x):
        h_relu = self.input_linear(x).clamp(min=0)
        for _ in range(random.randint(0, 3)):
            h_relu = self.middle_linear(h_relu).clamp(min=0)
        return self.output_linear(h_relu)


model = DynamicNet(D_in, H, D_out)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
for t in range(STEPS):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 20 == 19:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
