"""`judge show --html`: the statement as an HTML page, its headings, paragraphs, lists and code
as elements, its samples as a table of pre blocks, and everything from the problem escaped."""

from __future__ import annotations

from conftest import ROOT, run_judge

from judge.renderers.statement.html import Block, blocks

SUITE = """id: tags
title: "Tags <b>&</b>"
statement: |
  Read a line and print it.

  ## Input
  One line, such as <script>alert(1)</script>, at most
  100 characters.

  - no tabs
  - no NUL
  ```
  a < b
  ```
cases:
  - {name: one, visibility: sample, input: "<i>x</i>\\n", output: "<i>x</i>\\n"}
  - {name: hidden, input: "secret\\n", output: "secret\\n"}
"""


def test_the_statement_is_cut_into_blocks():
    assert blocks("# Title\n\nOne\ntwo\n\n- a\n- b\n```\nx  y\n```\n") == [
        Block("h1", ("Title",)), Block("p", ("One", "two")), Block("ul", ("a", "b")), Block("pre", ("x  y",))]


def test_the_page_shows_the_statement_and_samples_escaped(tmp_path):
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "tags.yaml").write_text(SUITE)
    done = run_judge("show", "tags", "--html", "--problems", str(tmp_path))
    assert done.returncode == 0, done.stderr
    page = done.stdout
    assert page.startswith("<!DOCTYPE html>") and "<title>Tags &lt;b&gt;&amp;&lt;/b&gt;</title>" in page
    assert "<h2>Input</h2>" in page and "<li>no tabs</li>" in page and "<pre>a &lt; b</pre>" in page
    assert "<p>One line, such as &lt;script&gt;alert(1)&lt;/script&gt;, at most 100 characters.</p>" in page
    assert "<script>" not in page and "<i>" not in page
    assert "<caption>one</caption>" in page and "<pre>&lt;i&gt;x&lt;/i&gt;\n</pre>" in page
    assert "secret" not in page  # hidden cases are not shown


def test_a_package_statement_page_has_its_samples():
    done = run_judge("show", str(ROOT / "tests" / "packages" / "addition"), "--html")
    assert done.returncode == 0, done.stderr
    assert "<table>" in done.stdout and "<caption>sample/" in done.stdout


def test_an_interactive_samples_page_shows_its_interaction():
    """A sample with an .interaction file is shown as that transcript (its .in is the validator's
    input, which the submission never sees), as `judge show` prints it."""
    done = run_judge("show", str(ROOT / "tests" / "packages" / "doubler"), "--html")
    assert done.returncode == 0, done.stderr
    assert "<caption>sample/1 (interaction)</caption>" in done.stdout
    assert "<th>Interaction</th>" in done.stdout and "judge:      3\nsubmission: 6" in done.stdout
