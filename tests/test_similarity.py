"""`judge similarity`: renamed and reordered copies are found, independent work and what the
problem itself hands out are not, and every format says so."""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

ORIGINAL_PY = """\
import sys
from functools import lru_cache


def winner(stones, moves):
    @lru_cache(maxsize=None)
    def wins(left):
        for move in moves:
            if move <= left and not wins(left - move):
                return True
        return False
    return "SK" if wins(stones) else "CY"


def read_case():
    data = sys.stdin.read().split()
    count = int(data[0])
    return count, (1, 3, 4)


def main():
    count, moves = read_case()
    print(winner(count, moves))


main()
"""

# The same program with every name changed and the functions in another order.
RENAMED_PY = """\
import sys
from functools import lru_cache


def parse():
    tokens = sys.stdin.read().split()
    total = int(tokens[0])
    return total, (1, 3, 4)


def who_wins(pile, steps):
    @lru_cache(maxsize=None)
    def good(rest):
        for step in steps:
            if step <= rest and not good(rest - step):
                return True
        return False
    return "SK" if good(pile) else "CY"


def entry():
    total, steps = parse()
    print(who_wins(total, steps))


entry()
"""

INDEPENDENT_PY = """\
n = int(input())
table = [False] * (n + 1)
for i in range(1, n + 1):
    table[i] = any(i >= k and not table[i - k] for k in (1, 3, 4))
print('SK' if table[n] else 'CY')
"""

ORIGINAL_C = """\
#include <stdio.h>

static int table[1001];

static int solve(int n) {
    for (int i = 1; i <= n; i++) {
        int win = 0;
        if (i >= 1 && !table[i - 1]) win = 1;
        if (i >= 3 && !table[i - 3]) win = 1;
        if (i >= 4 && !table[i - 4]) win = 1;
        table[i] = win;
    }
    return table[n];
}

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(solve(n) ? "SK" : "CY");
    return 0;
}
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def made_up_class(tmp_path: Path) -> Path:
    """ann wrote stones; bob renamed and reordered her code; cal wrote his own; dee and eve
    both handed in the problem's own example solution; fay sent a C copy of gus's C program
    with other names; hal's file is a link to ann's."""
    root = tmp_path / "class"
    write(root / "ann" / "stones.py", ORIGINAL_PY)
    write(root / "bob" / "stones.py", RENAMED_PY)
    write(root / "cal" / "stones.py", INDEPENDENT_PY)
    accepted = (ROOT / "solutions" / "stones" / "accepted" / "game_dp.py").read_text(encoding="utf-8")
    write(root / "dee" / "stones.py", accepted)
    write(root / "eve" / "stones.py", accepted)
    write(root / "gus" / "stones.c", ORIGINAL_C)
    renamed_c = ORIGINAL_C.replace("table", "memo").replace("solve", "decide").replace("win", "good")
    write(root / "fay" / "stones.c", renamed_c)
    (root / "hal").mkdir()
    os.symlink(root / "ann" / "stones.py", root / "hal" / "stones.py")
    return root


def similarity_json(*args: str) -> dict:
    done = run_judge("similarity", *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def pair_names(report: dict) -> list[tuple[str, str]]:
    return [(pair["a"], pair["b"]) for pair in report["pairs"]]


def test_renamed_and_reordered_copies_are_found_highest_first(made_up_class):
    report = similarity_json(str(made_up_class), "--problem", "stones")
    between_students = {names for names in pair_names(report) if not names[1].startswith("(the judge's own")}
    assert between_students == {("ann", "bob"), ("fay", "gus")}, report["pairs"]
    scores = [pair["score"] for pair in report["pairs"]]
    assert scores == sorted(scores, reverse=True)
    assert all(score >= 0.8 for score in scores), report["pairs"]
    ann_bob = next(pair for pair in report["pairs"] if pair["a"] == "ann")
    # The shared passages are character offsets into each program.
    assert ann_bob["a_spans"] and all(0 <= start < end <= len(ORIGINAL_PY) for start, end in ann_bob["a_spans"])
    assert report["compared"] == {"stones": 7}


def test_the_problems_own_solution_is_boilerplate_not_a_copy(made_up_class):
    report = similarity_json(str(made_up_class), "--threshold", "0")
    dee_eve = next(pair for pair in report["pairs"] if (pair["a"], pair["b"]) == ("dee", "eve"))
    assert dee_eve["score"] < 0.2, dee_eve
    # Independent work shares little.
    ann_cal = next(pair for pair in report["pairs"] if (pair["a"], pair["b"]) == ("ann", "cal"))
    assert ann_cal["score"] < 0.5, ann_cal


def test_a_copy_of_the_judges_own_solution_is_paired_with_it(made_up_class):
    report = similarity_json(str(made_up_class))
    copies = {pair["a"]: pair for pair in report["pairs"] if pair["b"].startswith("(the judge's own")}
    # dee and eve handed in the example solution game_dp.py; nobody else copied one of the judge's.
    assert set(copies) == {"dee", "eve"}, report["pairs"]
    assert all(pair["b"] == "(the judge's own game_dp.py)" and pair["score"] >= 0.95 for pair in copies.values())


def test_a_link_is_not_followed_and_says_so(made_up_class):
    report = similarity_json(str(made_up_class))
    assert not any("hal" in names for names in pair_names(report))
    assert any(note.startswith("hal/stones.py") and "symbolic link" in note for note in report["notes"])


def test_the_table_lists_the_pairs(made_up_class):
    done = run_judge("similarity", str(made_up_class))
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    assert ["stones", "ann", "bob"] in [row[:3] for row in rows]
    assert "submissions compared: stones: 7" in done.stdout


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.marks, self.links, self.ids, self.scripts = 0, [], set(), 0
        self.text = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.marks += tag == "mark"
        self.scripts += tag == "script"
        if tag == "a":
            self.links.append(attrs.get("href"))
        if "id" in attrs:
            self.ids.add(attrs["id"])

    def handle_data(self, data):
        self.text.append(data)


def test_the_html_page_links_each_pair_to_its_shared_passages(made_up_class, tmp_path):
    # A student's folder name is shown as text, never as markup.
    os.rename(made_up_class / "bob", made_up_class / "<script>bob")
    out = tmp_path / "similarity.html"
    done = run_judge("similarity", str(made_up_class), "--format", "html", "--out", str(out))
    assert done.returncode == 0, done.stderr
    page = _Page()
    page.feed(out.read_text(encoding="utf-8"))
    assert page.scripts == 0
    assert "<script>bob" in "".join(page.text)
    assert page.marks >= 2
    anchors = [link[1:] for link in page.links if link and link.startswith("#")]
    assert anchors and set(anchors) <= page.ids


@pytest.mark.parametrize(("args", "says"), [
    (["--threshold", "2"], "not between 0 and 1"),
    (["--threshold", "lots"], "not a share"),
    (["--problem", "stonez"], "did you mean 'stones'"),
])
def test_bad_options_get_a_clear_error(made_up_class, args, says):
    done = run_judge("similarity", str(made_up_class), *args)
    assert done.returncode == 2
    assert says in done.stderr and "Traceback" not in done.stderr


def test_a_missing_folder_gets_a_clear_error(tmp_path):
    done = run_judge("similarity", str(tmp_path / "nowhere"))
    assert done.returncode == 2 and "is not a folder" in done.stderr


def test_the_class_report_gains_a_similarity_section_when_asked(made_up_class, tmp_path):
    out = tmp_path / "report.html"
    done = run_judge("grade", str(made_up_class), "--db", str(tmp_path / "r.db"), "--format", "html", "--out", str(out),
                     "--similarity")
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert 'id="similarity-heading"' in html
    section = html[html.index('id="similarity-heading"'):]
    # ann and bob, fay and gus; and dee and eve each with the example solution they handed in.
    assert section.count('class="similar-pair"') == 4 and "<mark>" in section
    refused = run_judge("grade", str(made_up_class), "--similarity")
    assert refused.returncode == 2 and "judge similarity" in refused.stderr


def test_a_name_with_control_characters_is_shown_escaped(made_up_class):
    os.rename(made_up_class / "bob", made_up_class / "bob\x1b[2J\u202e")
    os.symlink(made_up_class / "ann" / "stones.py", made_up_class / "bob\x1b[2J\u202e" / "footholds.py")
    done = run_judge("similarity", str(made_up_class))
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout
    assert "bob\\x1b[2J\\u202e" in done.stdout


def test_the_report_is_the_same_whatever_pythons_hash_seed(made_up_class):
    """copydetect hashes k-grams with hash(), whose seed differs per process: the judge's own hash
    makes the shared token counts the same in every run."""
    reports = [run_judge("similarity", str(made_up_class), "--format", "json", env={"PYTHONHASHSEED": seed})
               for seed in ("1", "2", "3")]
    assert all(report.returncode == 0 for report in reports), reports[0].stderr
    assert reports[0].stdout == reports[1].stdout == reports[2].stdout


def test_a_file_over_its_budget_is_not_compared_and_says_why(made_up_class):
    """400 KB of nested parentheses (under the size cap) takes pygments minutes to lex: within a
    budget of a second of CPU time per file it is not compared, and the rest of the class is."""
    nested = 200_000
    write(made_up_class / "ivy" / "stones.py", "x = " + "(" * nested + ")" * nested + "\n")
    report = similarity_json(str(made_up_class), "--problem", "stones", "--cpu-per-file", "1")
    notes = [note for note in report["notes"] if note.startswith("ivy/")]
    assert notes == ["ivy/stones.py: not compared: over its budget of 1 s of CPU time"], report["notes"]
    assert report["compared"] == {"stones": 7}  # everyone else, as without ivy
    assert ("ann", "bob") in pair_names(report)


def test_a_file_over_its_memory_budget_is_not_compared(made_up_class):
    """Half a megabyte of one-letter lines takes some 90 MiB to lex and fingerprint; a
    hand-written solution, well under one."""
    write(made_up_class / "ivy" / "stones.py", "a\n" * 250_000)
    report = similarity_json(str(made_up_class), "--problem", "stones", "--memory-per-file", "32")
    assert "ivy/stones.py: not compared: over its budget of 32 MiB of memory" in report["notes"], report["notes"]
    assert report["compared"] == {"stones": 7} and ("ann", "bob") in pair_names(report)


def test_each_file_is_fingerprinted_once_and_the_judges_own_once_per_problem(made_up_class, monkeypatch):
    from judge.classroom.budget_worker import BudgetedWorker
    from judge.classroom.similarity import compare_class
    from judge.formats.catalog import catalog

    made: list[str] = []
    call = BudgetedWorker.call

    def counted(self, function, name, *rest):
        made.append(name)
        return call(self, function, name, *rest)

    monkeypatch.setattr(BudgetedWorker, "call", counted)
    report = compare_class(made_up_class, catalog(None).require_some(), only=["stones"])
    assert report.compared == {"stones": 7}
    examples = [name for name in made if not name.startswith("stones.")]  # the students' files are stones.*
    assert "game_dp.py" in examples and len(examples) == len(set(examples)), made  # each of the judge's own once
    assert len(made) == 1 + len(examples) + 7, made  # the reference stones.py, and each student's file once
