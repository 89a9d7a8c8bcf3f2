# Follows the PyTorch version of "Minibatch Stochastic Gradient Descent" in Dive into Deep Learning
# (d2l-ai/d2l-zh, chapter_optimization/minibatch-sgd_origin.md): a matrix product element by element,
# column by column, at once and by blocks; then gradient descent, SGD and minibatch SGD from scratch
# on the regression data, and torch.optim.SGD, with the d2l helpers it uses (d2l/torch.py: Timer,
# get_data_ch11, train_ch11, train_concise_ch11 and what they call) written out. Changes: the
# matrices are 64 x 64 (not 256 x 256) and the program prints whether the four products agree
# instead of their speed in gigaflops; the airfoil data are replaced by made-up features and a noisy
# linear target, 300 rows (not 1500: SGD with batch size 1 evaluates the whole set every 200
# examples); the Animator prints its points instead of plotting them; the plot of loss against time
# is left out, and so is the time per epoch.
# ruff: noqa: E306, E721, E731, E741, B905  (the public program's own style, kept)
import time

import numpy as np
import torch
from torch import nn
from torch.utils import data


def linreg(X, w, b):  #@save
    """The linear regression model."""
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):  #@save
    """Squared loss."""
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def load_array(data_arrays, batch_size, is_train=True):  #@save
    """Construct a PyTorch data iterator."""
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)


class Accumulator:  #@save
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def evaluate_loss(net, data_iter, loss):  #@save
    """Evaluate the loss of a model on the given dataset."""
    metric = Accumulator(2)  # Sum of losses, no. of examples
    for X, y in data_iter:
        out = net(X)
        y = y.reshape(out.shape)
        l = loss(out, y)
        metric.add(l.sum(), l.numel())
    return metric[0] / metric[1]


class Animator:  #@save
    """For plotting data in animation (here: printing each point)."""
    def __init__(self, xlabel=None, ylabel=None, legend=None, xlim=None,
                 ylim=None, xscale='linear', yscale='linear',
                 fmts=('-', 'm--', 'g-.', 'r:'), nrows=1, ncols=1,
                 figsize=(3.5, 2.5)):
        if legend is None:
            legend = []
        self.legend = legend
        self.X, self.Y, self.fmts = None, None, fmts

    def add(self, x, y):
        # Add multiple data points into the figure
        if not hasattr(y, "__len__"):
            y = [y]
        n = len(y)
        if not hasattr(x, "__len__"):
            x = [x] * n
        if not self.X:
            self.X = [[] for _ in range(n)]
        if not self.Y:
            self.Y = [[] for _ in range(n)]
        for i, (a, b) in enumerate(zip(x, y)):
            if a is not None and b is not None:
                self.X[i].append(a)
                self.Y[i].append(b)
        print(x[0], ', '.join(f'{name} {value:.5f}' for name, value in zip(self.legend or [''] * n, y)
                              if value is not None))


class Timer:  #@save
    """Record multiple running times."""
    def __init__(self):
        self.times = []
        self.start()

    def start(self):
        """Start the timer."""
        self.tik = time.time()

    def stop(self):
        """Stop the timer and record the time in a list."""
        self.times.append(time.time() - self.tik)
        return self.times[-1]

    def avg(self):
        """Return the average time."""
        return sum(self.times) / len(self.times)

    def cumsum(self):
        """Return the accumulated time."""
        return np.array(self.times).cumsum().tolist()


timer = Timer()
A = torch.zeros(64, 64)
B = torch.randn(64, 64)
C = torch.randn(64, 64)

# Compute A = BC one element at a time
timer.start()
for i in range(64):
    for j in range(64):
        A[i, j] = torch.dot(B[i, :], C[:, j])
timer.stop()
element = A.clone()

# Compute A = BC one column at a time
timer.start()
for j in range(64):
    A[:, j] = torch.mv(B, C[:, j])
timer.stop()
column = A.clone()

# Compute A = BC in one go
timer.start()
A = torch.mm(B, C)
timer.stop()

timer.start()
for j in range(0, 64, 16):
    A[:, j:j+16] = torch.mm(B, C[:, j:j+16])
timer.stop()
print(len(timer.times), torch.allclose(element, torch.mm(B, C), atol=1e-5),
      torch.allclose(column, A, atol=1e-5), A[:2, :3])


def get_data_ch11(batch_size=10, n=300):  #@save
    """Stands in for d2l's: 5 made-up features and a noisy linear target, normalised per column,
    instead of the downloaded airfoil data."""
    rng = np.random.default_rng(0)
    features = rng.normal(size=(1503, 5))
    target = features @ np.array([0.5, -1.0, 0.3, 0.8, -0.2]) + 0.5 * rng.normal(size=1503)
    data = np.concatenate([features, target[:, None]], axis=1).astype(np.float32)
    data = torch.from_numpy((data - data.mean(axis=0)) / data.std(axis=0))
    data_iter = load_array((data[:n, :-1], data[:n, -1]),
                           batch_size, is_train=True)
    return data_iter, data.shape[1]-1


def sgd(params, states, hyperparams):
    for p in params:
        p.data.sub_(hyperparams['lr'] * p.grad)
        p.grad.data.zero_()


def train_ch11(trainer_fn, states, hyperparams, data_iter,
               feature_dim, num_epochs=2):
    # Initialization
    w = torch.normal(mean=0.0, std=0.01, size=(feature_dim, 1),
                     requires_grad=True)
    b = torch.zeros((1), requires_grad=True)
    net, loss = lambda X: linreg(X, w, b), squared_loss
    # Train
    animator = Animator(xlabel='epoch', ylabel='loss',
                        xlim=[0, num_epochs], ylim=[0.22, 0.35])
    n, timer = 0, Timer()
    for _ in range(num_epochs):
        for X, y in data_iter:
            l = loss(net(X), y).mean()
            l.backward()
            trainer_fn([w, b], states, hyperparams)
            n += X.shape[0]
            if n % 200 == 0:
                timer.stop()
                animator.add(n/X.shape[0]/len(data_iter),
                             (evaluate_loss(net, data_iter, loss),))
                timer.start()
    print(f'loss: {animator.Y[0][-1]:.3f}')          # (d2l also prints the time per epoch)
    return timer.cumsum(), animator.Y[0]


def train_sgd(lr, batch_size, num_epochs=2):
    data_iter, feature_dim = get_data_ch11(batch_size)
    return train_ch11(
        sgd, None, {'lr': lr}, data_iter, feature_dim, num_epochs)


gd_res = train_sgd(1, 1500, 10)
sgd_res = train_sgd(0.005, 1)
mini1_res = train_sgd(.4, 100)
mini2_res = train_sgd(.05, 10)


def train_concise_ch11(trainer_fn, hyperparams, data_iter, num_epochs=4):
    # Initialization
    net = nn.Sequential(nn.Linear(5, 1))
    def init_weights(m):
        if type(m) == nn.Linear:
            torch.nn.init.normal_(m.weight, std=0.01)
    net.apply(init_weights)

    optimizer = trainer_fn(net.parameters(), **hyperparams)
    loss = nn.MSELoss(reduction='none')
    animator = Animator(xlabel='epoch', ylabel='loss',
                        xlim=[0, num_epochs], ylim=[0.22, 0.35])
    n, timer = 0, Timer()
    for _ in range(num_epochs):
        for X, y in data_iter:
            optimizer.zero_grad()
            out = net(X)
            y = y.reshape(out.shape)
            l = loss(out, y)
            l.mean().backward()
            optimizer.step()
            n += X.shape[0]
            if n % 200 == 0:
                timer.stop()
                # MSELoss computes the squared error without the 1/2 factor
                animator.add(n/X.shape[0]/len(data_iter),
                             (evaluate_loss(net, data_iter, loss) / 2,))
                timer.start()
    print(f'loss: {animator.Y[0][-1]:.3f}')          # (d2l also prints the time per epoch)


data_iter, _ = get_data_ch11(10)
trainer = torch.optim.SGD
train_concise_ch11(trainer, {'lr': 0.01}, data_iter)
