"""What problem setters run on their problems: `judge test` (verification), `judge stress`
(differential testing), the counterexample search behind failing hidden cases (explain), and
`judge export`."""
