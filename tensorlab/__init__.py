"""TensorLab: see how PyTorch tensors are copied, shared and differentiated."""

__version__ = "0.1.0"
