# Follows "PyTorch: optim" (pytorch/tutorials, beginner_source/examples_nn/polynomial_optim.py):
# the current version with SGD, then the earlier one with RMSprop (lr=1e-3). Near
# the optimum RMSprop's normalised steps jitter, and float32 rounding sends the two
# libraries different ways there: the RMSprop run stops after 500 of its 2000 steps.
# (At 1000 steps the two parted by up to 9e-4 relative, by more or less from run to run
# and between BLAS kernels; at 500 and 700 they agree within 2e-6.)
import torch
import math

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

for make_optimizer, steps in ((lambda params: torch.optim.SGD(params, lr=1e-6), 2000),
                              (lambda params: torch.optim.RMSprop(params, lr=1e-3), 500)):
    model = torch.nn.Sequential(
        torch.nn.Linear(3, 1),
        torch.nn.Flatten(0, 1)
    )
    loss_fn = torch.nn.MSELoss(reduction='sum')
    optimizer = make_optimizer(model.parameters())
    for t in range(steps):
        y_pred = model(xx)
        loss = loss_fn(y_pred, y)
        if t % 100 == 99:
            print(t, loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    linear_layer = model[0]
    print(f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + '
          f'{linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3')
