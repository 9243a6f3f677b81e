"""TensorLab's shipped data: built-in lessons, translations, icons (installed as tensorlab.resources)."""
