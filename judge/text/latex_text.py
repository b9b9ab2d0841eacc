"""A LaTeX problem statement as readable text, for `judge show` (no TeX needed).

What problemtools' statements use most is handled: ``\\problemname``, sections, inline and
display math (``$...$``, ``$$...$$``, ``\\[...\\]``) with the common symbols as Unicode,
``itemize``/``enumerate`` lists, ``\\texttt``/``\\textbf``/``\\emph``, ``\\illustration``,
quotes, dashes, line breaks and comments. Any other command shows its argument's text; an
unknown environment shows its contents.
"""

from __future__ import annotations

import re

SYMBOLS = {
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "cdot": "·", "times": "×",
    "ldots": "…", "dots": "…", "cdots": "⋯", "infty": "∞", "pm": "±", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "in": "∈", "notin": "∉", "subseteq": "⊆", "cup": "∪", "cap": "∩", "sum": "∑",
    "prod": "∏", "sqrt": "√", "approx": "≈", "equiv": "≡", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈",
    "rceil": "⌉", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "lambda": "λ",
    "mu": "μ", "pi": "π", "sigma": "σ", "theta": "θ", "phi": "φ", "omega": "ω", "Delta": "Δ",
    "log": "log", "max": "max", "min": "min", "gcd": "gcd", "bmod": "mod", "mod": "mod", "lvert": "|",
    "rvert": "|", "mid": "|", "quad": "  ", "qquad": "    ", "left": "", "right": "", "displaystyle": "",
}
# Commands whose argument is dropped entirely: layout and metadata, not text.
DROPPED = {"label", "vspace", "hspace", "includegraphics", "newcommand", "renewcommand", "usepackage",
           "documentclass", "source", "license", "author", "illustrationwidth"}
SECTIONS = re.compile(r"\\(sub)*section\*?\{([^{}]*)\}")
LIST_ENVIRONMENTS = {"itemize": "-", "enumerate": "1."}


def latex_to_text(source: str) -> str:
    """``source`` (a statement's LaTeX) as plain text with Markdown-like headings and lists."""
    text = _strip_comments(source)
    text = re.sub(r"\\problemname\{([^{}]*)\}", lambda match: f"# {match[1]}\n", text)
    text = SECTIONS.sub(lambda match: f"\n{'#' * (2 + len(match[1] or '') // 3)} {match[2]}\n", text)
    text = re.sub(r"\\illustration\{[^{}]*\}\{[^{}]*\}\{((?:[^{}]|\{[^{}]*\})*)\}",
                  lambda match: f"[illustration: {match[1]}]", text)
    text = _math(text)
    text = _lists(text)
    text = re.sub(r"\\begin\{[^{}]*\}|\\end\{[^{}]*\}", "", text)
    text = _typography(text)
    text = _commands(text)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in text.splitlines())).strip() + "\n"


def _strip_comments(text: str) -> str:
    """Everything from an unescaped % to the end of its line."""
    return "\n".join(re.sub(r"(?<!\\)%.*", "", line) for line in text.splitlines())


def _math(text: str) -> str:
    """Display math on a line of its own, inline math in place, both as plain symbols."""
    text = re.sub(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]", lambda match: f"\n    {_formula(match[1] or match[2])}\n",
                  text, flags=re.S)
    return re.sub(r"(?<!\\)\$(.+?)(?<!\\)\$", lambda match: _formula(match[1]), text, flags=re.S)


def _formula(math: str) -> str:
    math = re.sub(r"\\(?:mathrm|mathit|mathbf|text|textrm|operatorname)\{([^{}]*)\}", r"\1", math)
    math = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", lambda match: f"{_grouped(match[1])}/{_grouped(match[2])}", math)
    math = re.sub(r"\\([A-Za-z]+)", lambda match: SYMBOLS.get(match[1], match[1]), math)
    math = re.sub(r"([\^_])\{([^{}]*)\}", lambda match: match[1] + _grouped(match[2]), math)
    math = math.replace("\\,", " ").replace("\\;", " ").replace("\\!", "").replace("\\{", "{").replace("\\}", "}")
    math = math.replace("{", "").replace("}", "").replace("~", " ")
    return " ".join(math.split())


def _grouped(part: str) -> str:
    """A fraction's or exponent's part: parenthesised when it is more than one symbol."""
    part = part.strip()
    return part if len(part) <= 1 or part.isalnum() else f"({part})"


def _lists(text: str) -> str:
    """``\\item`` as ``-`` in itemize and ``1.`` in enumerate (numbered in order)."""
    def render(match: re.Match) -> str:
        marker = LIST_ENVIRONMENTS[match[1]]
        items = re.split(r"\\item\b", match[2])[1:]
        lines = [f"{index}. " if marker == "1." else "- " for index in range(1, len(items) + 1)]
        return "\n" + "\n".join(prefix + " ".join(item.split()) for prefix, item in zip(lines, items)) + "\n"
    pattern = r"\\begin\{(itemize|enumerate)\}((?:(?!\\begin\{(?:itemize|enumerate)\}).)*?)\\end\{\1\}"
    previous = None
    while previous != text:  # innermost lists first
        previous, text = text, re.sub(pattern, render, text, flags=re.S)
    return text


def _typography(text: str) -> str:
    text = re.sub(r"``(.*?)''", r"“\1”", text, flags=re.S)
    text = text.replace("---", "—").replace("--", "–").replace("~", " ")
    text = re.sub(r"\\\\(\[[^\]]*\])?", "\n", text)
    for escaped in ("%", "$", "&", "#", "_", "{", "}"):
        text = text.replace("\\" + escaped, escaped)
    return text


def _commands(text: str) -> str:
    """``\\texttt{x}`` as `x`, other formatting commands as their text, the rest dropped."""
    text = re.sub(r"\\texttt\{([^{}]*)\}", r"`\1`", text)
    text = re.sub(r"\\href\{[^{}]*\}\{([^{}]*)\}", r"\1", text)
    previous = None
    while previous != text:  # nested arguments, innermost first
        previous = text
        text = re.sub(r"\\([A-Za-z]+)\*?(?:\[[^\]]*\])?\{([^{}]*)\}",
                      lambda match: "" if match[1] in DROPPED else match[2], text)
    text = re.sub(r"\\([A-Za-z]+)\b\s?", lambda match: SYMBOLS.get(match[1], ""), text)
    return text.replace("{", "").replace("}", "")
