"""The desktop app's entry point: the torch-free launcher behind the `tensorlab` command."""
