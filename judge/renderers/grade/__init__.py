"""Renderers of a class report (`judge grade --format NAME`), one module each."""
