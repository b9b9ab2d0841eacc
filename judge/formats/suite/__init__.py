"""The built-in format: a YAML case suite per problem (``format``), its generated cases
(``generated``) and the checks `judge test` makes of it (``checks``)."""
