"""judge: a test-driven judge and grading harness for programming problems."""

__version__ = "0.1.0"
