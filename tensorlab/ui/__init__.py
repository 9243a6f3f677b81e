"""TensorLab's Qt user interface: panels that render core snapshots and send user actions."""
