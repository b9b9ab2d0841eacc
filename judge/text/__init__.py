"""Text for people: fitting it to the terminal, making untrusted text safe to show, where two
outputs differ, naming what was meant, reading YAML and LaTeX, and the documentation's links.
Below everything else: it knows nothing of problems or judging."""
