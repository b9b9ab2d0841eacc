"""Renderers of a similarity report (`judge similarity --format NAME`), one module each."""
