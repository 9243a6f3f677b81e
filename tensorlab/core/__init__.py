"""TensorLab's Qt-free core: the code subset, sessions, snapshots, lessons, explanations."""
