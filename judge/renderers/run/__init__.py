"""Renderers of one submission's result (`judge run --format NAME`), one module each:
``render(result, problem) -> str``."""
