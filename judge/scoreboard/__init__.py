"""Scoreboards: the standings computed from the results store (``standings``), and the live
scoreboard served over HTTP (``server``, ``app``, ``feed``)."""
