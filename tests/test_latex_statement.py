"""`judge show` on a package with a LaTeX statement prints readable text, not LaTeX (the
package format's problem_statement/problem.en.tex, as problemtools' examples write them)."""

from __future__ import annotations

import shutil

from conftest import ROOT, run_judge

from judge.text.latex_text import latex_to_text

# In the style of problemtools' examples (`different`, `hello`).
STATEMENT = r"""\problemname{A Different Problem}
% Write a program that computes the difference
Write a program that computes the difference between non-negative integers.

\section*{Input}
Each line of the input contains a pair of integers $a$ and $b$ with $0 \le a, b \le 10^{15}$.
\begin{itemize}
  \item the first \emph{number}, then
  \item the second, as in \texttt{3 5}.
\end{itemize}

\section*{Output}
For each case, print ``the difference'' --- $|a-b|$, that is 100\% of it.
\[ \frac{a+b}{2} \ne b_{i+1} \]
\illustration{0.3}{different.jpg}{Source: \href{https://example.com}{Wikimedia}}
"""


def test_latex_becomes_readable_text():
    text = latex_to_text(STATEMENT)
    assert text.startswith("# A Different Problem\n")
    assert "## Input" in text and "## Output" in text
    assert "0 ≤ a, b ≤ 10^15" in text
    assert "- the first number, then\n- the second, as in `3 5`." in text
    assert "print “the difference” — |a-b|, that is 100% of it." in text
    assert "(a+b)/2 ≠ b_(i+1)" in text
    assert "[illustration: Source: Wikimedia]" in text
    assert "\\" not in text and "$" not in text and "Write a program that computes the difference\n" not in text


def test_enumerate_lists_are_numbered_and_nested_lists_kept():
    text = latex_to_text(r"\begin{enumerate}\item one \begin{itemize}\item inner\end{itemize} \item two\end{enumerate}")
    assert "1. one" in text and "- inner" in text and "2. two" in text


def test_judge_show_prints_a_latex_statement_as_text(tmp_path):
    package = tmp_path / "different"
    shutil.copytree(ROOT / "tests" / "packages" / "addition", package)
    shutil.rmtree(package / "problem_statement", ignore_errors=True)
    (package / "problem_statement").mkdir()
    (package / "problem_statement" / "problem.en.tex").write_text(STATEMENT)
    done = run_judge("show", str(package))
    assert done.returncode == 0, done.stderr
    assert "# A Different Problem" in done.stdout and "\\problemname" not in done.stdout
    assert "0 ≤ a, b ≤ 10^15" in done.stdout
