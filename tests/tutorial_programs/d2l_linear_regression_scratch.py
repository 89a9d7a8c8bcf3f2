# Follows the PyTorch version of "Linear Regression Implementation from Scratch" in Dive
# into Deep Learning (d2l-ai/d2l-zh, chapter_linear-networks/linear-regression-scratch_origin.md),
# with the d2l helpers it uses (d2l/torch.py: normal, matmul, reshape) written out.
# The scatter plot of the data is left out.
# ruff: noqa: E741  (the public program's own style, kept)
import random

import torch

normal, matmul, tensor = torch.normal, torch.matmul, torch.tensor


def reshape(x, *args, **kwargs):
    return x.reshape(*args, **kwargs)


def synthetic_data(w, b, num_examples):  #@save
    """Generate y = Xw + b + noise."""
    X = normal(0, 1, (num_examples, len(w)))
    y = matmul(X, w) + b
    y += normal(0, 0.01, y.shape)
    return X, reshape(y, (-1, 1))


true_w = tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)

print('features:', features[0], '\nlabel:', labels[0])


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    # The examples are read at random, in no particular order
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = tensor(
            indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


batch_size = 10

for X, y in data_iter(batch_size, features, labels):
    print(X, '\n', y)
    break

w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def linreg(X, w, b):  #@save
    """The linear regression model."""
    return matmul(X, w) + b


def squared_loss(y_hat, y):  #@save
    """Squared loss."""
    return (y_hat - reshape(y, y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):  #@save
    """Minibatch stochastic gradient descent."""
    for param in params:
        param.data.sub_(lr*param.grad/batch_size)
        param.grad.data.zero_()


lr = 0.03
num_epochs = 3
net = linreg
loss = squared_loss

for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)  # Minibatch loss in `X` and `y`
        # Compute gradient on `l` with respect to [`w`, `b`]
        l.sum().backward()
        sgd([w, b], lr, batch_size)  # Update parameters using their gradient
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')

print(f'error in estimating w: {true_w - reshape(w, true_w.shape)}')
print(f'error in estimating b: {true_b - b}')
