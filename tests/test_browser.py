"""The HTML class report and the live scoreboard in a real headless browser (Debian's chromium
and chromium-driver, driven by Selenium): they load without console errors, sort, open, draw the
expected histogram, show a submission's markup as text, and follow a `judge grade` as it runs.
Screenshots of both pages are saved under docs/screenshots/, where the docs show them."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, make_class, run_judge
from page_policy import assert_only_its_own_script_and_style

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
SCREENSHOTS = ROOT / "docs" / "screenshots"  # the pages' pictures, drawn anew by every run of these tests
SOLUTIONS = ROOT / "solutions"
MARKUP = "<script>alert(1)</script>"

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="browser tests need Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver): "
           "apt-get install chromium chromium-driver")


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1400"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver: Selenium Manager never looks for (or downloads) one.
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()


CLASS = {
    "ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
    "ana/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
    "ben/stones.py": SOLUTIONS / "stones/wrong_answer/even_wins.py",
    "cy/stones.py": SOLUTIONS / "stones/wrong_answer/multiple_of_four.py",
    "cy/footholds.js": SOLUTIONS / "footholds/wrong_answer/vanish_ignored.js",
    "eve/stones.py": f"print({MARKUP!r})\n",
    "eve/chess.py": "print(1)\n",
}


@pytest.fixture(scope="module")
def report(tmp_path_factory, browser):
    """The class graded once: the HTML report's URL and the same report as JSON."""
    base = tmp_path_factory.mktemp("html")
    folder = make_class(base / "subs", CLASS)
    db, page = base / "results.db", base / "report.html"
    done = run_judge("grade", str(folder), "--db", str(db), "--format", "html", "--out", str(page))
    assert done.returncode == 0, done.stderr
    data = json.loads(run_judge("grade", str(folder), "--db", str(db), "--format", "json").stdout)
    browser.get(page.as_uri())
    return page.as_uri(), data


@pytest.fixture(autouse=True)
def fresh_page(request):
    """Each test starts on a blank page with an empty console log: the browser is shared, and a
    page left open on a live scoreboard whose server stopped keeps logging its reconnections."""
    if "browser" in request.fixturenames:
        driver = request.getfixturevalue("browser")
        driver.get("about:blank")
        driver.get_log("browser")
    yield


def severe_console_entries(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def column(driver, index: int) -> list[str]:
    return [cell.text for cell in driver.find_elements("css selector", f"#class-table tbody tr > :nth-child({index})")]


def test_the_report_loads_without_console_errors(browser, report):
    url, data = report
    browser.get(url)
    assert browser.title == "Class report"
    assert severe_console_entries(browser) == []
    # Self-contained: the page asked for nothing beyond itself.
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert column(browser, 2) == [student["student"] for student in data["students"]]
    assert "no problem called 'chess'" in browser.find_element("id", "skipped").text
    # The page's style sheet applied as written (an escaped one loses its font rule).
    assert "Segoe UI" in browser.execute_script("return getComputedStyle(document.body).fontFamily")


def test_the_report_allows_only_its_own_script_and_style_sheet(report):
    url, _ = report
    assert_only_its_own_script_and_style(Path(url.removeprefix("file://")).read_text(encoding="utf-8"))


def test_a_header_click_sorts_the_rows(browser, report):
    url, data = report
    browser.get(url)
    names = [student["student"] for student in data["students"]]
    student_header = browser.find_element("css selector", "#class-table thead th:nth-child(2) button")
    student_header.click()
    assert column(browser, 2) == sorted(names)
    student_header.click()
    assert column(browser, 2) == sorted(names, reverse=True)
    browser.find_element("css selector", "#class-table thead th:nth-child(4) button").click()  # stones
    scores = [float(text.split()[0]) for text in column(browser, 4)]
    assert scores == sorted(scores) and column(browser, 2) != names
    header = browser.find_element("css selector", "#class-table thead th:nth-child(4)")
    assert header.get_attribute("aria-sort") == "ascending"
    assert severe_console_entries(browser) == []


def test_a_students_details_open_with_the_sample_difference(browser, report):
    url, data = report
    browser.get(url)
    position = [student["student"] for student in data["students"]].index("ben") + 1
    details = browser.find_element("id", f"student-{position}")
    assert details.get_attribute("open") is None
    assert not details.find_element("css selector", "table.cases").is_displayed()
    details.find_element("tag name", "summary").click()
    assert details.get_attribute("open") is not None
    cases = details.find_element("css selector", "table.cases")
    assert cases.is_displayed()
    assert "sample-1" in cases.text and "WA" in cases.text
    figures = details.find_elements("css selector", ".sides figure")
    assert [figure.find_element("tag name", "figcaption").text for figure in figures] == ["Input", "Expected", "Got"]
    assert [figure.find_element("tag name", "mark").text for figure in figures[1:]] == ["SK", "CY"]
    # Hidden cases show their verdict and message only: one output panel, for the one sample.
    assert len(details.find_elements("css selector", ".sample")) == 1
    # The docs show what the code draws: their screenshots are these.
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "class-report.png"))
    print(f"screenshot: {SCREENSHOTS / 'class-report.png'}")


def test_the_histogram_has_a_bar_per_tenth_sized_by_the_data(browser, report):
    url, data = report
    browser.get(url)
    for problem in ("stones", "footholds"):
        scores = [student["problems"][problem]["score"] for student in data["students"]
                  if student["problems"][problem]["status"] == "graded"]
        expected = [0] * 10
        for score in scores:
            expected[min(9, int(score / 10))] += 1
        bars = browser.find_elements("css selector", f"#problem-{problem} .histogram rect.bar")
        assert [int(bar.get_attribute("data-count")) for bar in bars] == expected
        heights = [float(bar.get_attribute("height")) for bar in bars]
        tallest = max(heights)
        assert tallest > 0
        for height, count in zip(heights, expected):
            assert height == pytest.approx(tallest * count / max(expected), abs=0.11)
        mix = browser.find_element("css selector", f"#problem-{problem} ul.mix").text
        for verdict in {student["problems"][problem]["verdict"] for student in data["students"]
                        if student["problems"][problem]["status"] == "graded"}:
            assert verdict in mix


def test_markup_a_submission_prints_is_shown_as_text(browser, report):
    from selenium.common.exceptions import NoAlertPresentException

    url, data = report
    browser.get(url)
    position = [student["student"] for student in data["students"]].index("eve") + 1
    details = browser.find_element("id", f"student-{position}")
    details.find_element("tag name", "summary").click()
    got = details.find_elements("css selector", ".sides figure")[2]
    assert MARKUP in got.text
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 (reading it is the check)
    assert len(browser.find_elements("tag name", "script")) == 1  # the page's own
    assert severe_console_entries(browser) == []


# --- the live scoreboard ----------------------------------------------------------------------

SLOW_AC = ("import time\ntime.sleep(0.4)\nn = int(input())\nprint('SK' if n % 2 else 'CY')\n")


def start_scoreboard(db: Path, *options: str) -> tuple[subprocess.Popen, str]:
    """A real `judge scoreboard --serve` on a free port; returns it and the URL it printed."""
    server = subprocess.Popen([sys.executable, "-m", "judge", "scoreboard", "--serve", "--port", "0",
                               "--db", str(db), *options], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    line = server.stderr.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert match, line
    return server, match.group(0)


def stop(server: subprocess.Popen) -> str:
    server.send_signal(signal.SIGINT)
    try:
        return server.communicate(timeout=20)[1]
    finally:
        if server.poll() is None:
            server.kill()


def rows(driver) -> list[list[str]]:
    """The scoreboard's rows, read in one go (the page redraws them every second)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#scoreboard tbody tr'))"
        ".map((row) => Array.from(row.children).map((cell) => cell.textContent));")


def cells(driver) -> dict[str, list[dict]]:
    """Each student's problem cells: state (class and data-state), text, title and aria-label."""
    return driver.execute_script(
        "const found = {};"
        "document.querySelectorAll('#scoreboard tbody tr').forEach((row) => {"
        "  found[row.querySelector('th').textContent] = Array.from(row.querySelectorAll('td.cell')).map((cell) => ({"
        "    classes: Array.from(cell.classList), state: cell.dataset.state, text: cell.textContent,"
        "    title: cell.title, label: cell.getAttribute('aria-label'),"
        "    background: getComputedStyle(cell).backgroundColor}));"
        "});"
        "return found;")


def wait_for(driver, condition, what: str, seconds: float = 60):
    """The page's cells once ``condition(cells)`` holds (a hang check: fails after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not condition(shown := cells(driver)):
        assert time.monotonic() < deadline, f"the page never showed {what}: {shown}"
        time.sleep(0.1)
    return shown


def test_the_live_scoreboard_follows_a_running_grade(browser, tmp_path):
    folder = make_class(tmp_path / "subs", {
        "ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "ben/stones.py": SOLUTIONS / "stones/wrong_answer/multiple_of_four.py",
        "zed/stones.py": SLOW_AC,  # 22 cases of 0.4 s: the grade is still running when the others show
    })
    db = tmp_path / "results.db"
    server, url = start_scoreboard(db)
    grade = None
    try:
        browser.get(url)
        assert browser.title == "Scoreboard"
        browser.execute_script("window.loadedOnce = true;")
        assert rows(browser) == []
        grade = subprocess.Popen([sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db),
                                  "-j", "1", "--format", "json"], cwd=ROOT, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "80"})
        seen_while_running = None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            shown = rows(browser)
            if shown and grade.poll() is None:
                seen_while_running = shown
            if len(shown) == 3 and grade.poll() is not None:
                break
            time.sleep(0.2)
        _, grade_err = grade.communicate(timeout=240)
        assert grade.returncode == 0, grade_err
        assert seen_while_running, "the page showed nothing while the grade ran"
        while (final := {row[1]: row for row in rows(browser)}).get("zed", [""] * 4)[3] != "100":
            assert time.monotonic() < deadline, f"the page never showed zed's result: {final}"
            time.sleep(0.2)
        assert set(final) == {"ana", "ben", "zed"}
        assert final["ana"][0] == final["zed"][0] == "1" and final["ana"][3] == "100"
        assert final["ben"][2] == final["ben"][3] == "77.27"
        assert browser.execute_script("return window.loadedOnce === true;"), "the page was reloaded"
        assert severe_console_entries(browser) == []
        SCREENSHOTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(SCREENSHOTS / "scoreboard.png"))
        print(f"screenshot: {SCREENSHOTS / 'scoreboard.png'}")
    finally:
        if grade is not None and grade.poll() is None:
            grade.kill()
        stderr = stop(server)
    assert server.returncode == 0 and "scoreboard stopped" in stderr


def wait_for_rows(driver, count: int, seconds: float = 30) -> list[list[str]]:
    """The scoreboard's rows once there are ``count`` of them (a hang check: fails after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while len(shown := rows(driver)) != count:
        assert time.monotonic() < deadline, f"the page shows {shown}, not {count} rows"
        time.sleep(0.2)
    return shown


def test_the_live_scoreboard_is_pushed_to_the_page_as_server_sent_events(browser, tmp_path):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    db = tmp_path / "results.db"
    assert run_judge("grade", str(folder), "--db", str(db)).returncode == 0
    server, url = start_scoreboard(db)
    try:
        browser.get(url)
        wait_for_rows(browser, 1)
        browser.execute_script("window.loadedOnce = true;")
        make_class(folder, {"ben/stones.py": SOLUTIONS / "stones/wrong_answer/multiple_of_four.py"})
        assert run_judge("grade", str(folder), "--db", str(db)).returncode == 0
        wait_for(browser, lambda shown: shown.get("ben", [{}])[0].get("state") == "failed", "ben's result")
        shown = {row[1]: row for row in rows(browser)}
        assert shown["ana"][2:] == ["100 *", "100"] and shown["ben"][2:] == ["77.27", "77.27"]
        assert browser.execute_script("return window.loadedOnce === true;"), "the page was reloaded"
        asked = browser.execute_script(
            "return performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);")
        assert "/standings.json" not in asked, "the page polled instead of following the event stream"
        assert severe_console_entries(browser) == []
    finally:
        stderr = stop(server)
    assert server.returncode == 0 and "scoreboard stopped" in stderr


def test_a_frozen_scoreboard_colours_and_labels_each_state_and_says_since_when(browser, tmp_path):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
                                            "cy/stones.py": SOLUTIONS / "stones/wrong_answer/even_wins.py",
                                            "dee/stones.c": SOLUTIONS / "stones/accepted/parity.c",
                                            "ben/stones.c": SOLUTIONS / "stones/accepted/parity.c"})
    start = time.time() - 7200
    for name, minutes in (("ana/stones.py", 0), ("cy/stones.py", 10), ("dee/stones.c", 20)):
        os.utime(folder / name, (start + minutes * 60, start + minutes * 60))  # ben's is now: after the freeze
    db = tmp_path / "results.db"
    assert run_judge("grade", str(folder), "--db", str(db)).returncode == 0
    server, url = start_scoreboard(db, "--mode", "icpc", "--freeze-at", "60")
    try:
        browser.get(url)
        shown = {row[1]: row for row in wait_for_rows(browser, 4)}
        assert shown == {"ana": ["1", "ana", "1 / 0 *", "1", "0"], "dee": ["2", "dee", "1 / 20", "1", "20"],
                         "ben": ["3", "ben", "0 + 1 ?", "0", "0"], "cy": ["3", "cy", "1 / -", "0", "0"]}
        by_student = {student: row[0] for student, row in cells(browser).items()}
        expected = {"ana": ("first", "ana, stones: solved first (the first to solve it) at minute 0, in 1 try"),
                    "dee": ("solved", "dee, stones: solved at minute 20, in 1 try"),
                    "cy": ("failed", "cy, stones: not solved: 1 try rejected"),
                    "ben": ("pending", "ben, stones: pending: 1 submission after the freeze")}
        for student, (state, label) in expected.items():
            cell = by_student[student]
            assert f"state-{state}" in cell["classes"] and cell["state"] == state, cell
            assert cell["label"] == cell["title"] == label  # the state in words, not only in colour
        assert len({cell["background"] for cell in by_student.values()}) == 4  # each state its colour
        banner = browser.find_element("id", "frozen").text
        assert banner.startswith("The scoreboard is frozen since ") and "60 minutes after the first submission" in banner
        legend = browser.find_elements("css selector", "#legend li")
        assert [item.get_attribute("data-state") for item in legend] == ["first", "solved", "failed", "pending",
                                                                         "untried"]
        assert all(item.is_displayed() for item in legend)
        assert severe_console_entries(browser) == []  # the CSP let the page's own style sheet and script in
        SCREENSHOTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(SCREENSHOTS / "scoreboard-frozen.png"))
        print(f"screenshot: {SCREENSHOTS / 'scoreboard-frozen.png'}")
    finally:
        stop(server)


def test_a_cell_turns_from_pending_to_solved_when_its_result_arrives(browser, tmp_path):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
                                            "zed/stones.py": SLOW_AC})  # 22 cases of 0.4 s: seconds pending
    now = time.time()
    os.utime(folder / "ana/stones.py", (now - 600, now - 600))
    os.utime(folder / "zed/stones.py", (now - 540, now - 540))
    db = tmp_path / "results.db"
    server, url = start_scoreboard(db, "--mode", "icpc")
    grade = None
    try:
        browser.get(url)
        browser.execute_script("window.loadedOnce = true;")
        grade = subprocess.Popen([sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "-j", "1"],
                                 cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        pending = wait_for(browser, lambda shown: shown.get("zed", [{}])[0].get("state") == "pending",
                           "zed's cell pending", seconds=120)["zed"][0]
        assert grade.poll() is None, "the grade ended before the page showed zed's cell pending"
        assert "state-pending" in pending["classes"] and pending["text"] == "0 + 1 ?"
        assert pending["label"] == "zed, stones: pending: 1 submission not judged yet"
        solved = wait_for(browser, lambda shown: shown["zed"][0]["state"] != "pending", "zed's result",
                          seconds=240)
        assert grade.wait(timeout=60) == 0, grade.stderr.read()
        assert solved["zed"][0]["state"] == "solved" and "state-solved" in solved["zed"][0]["classes"]
        assert solved["zed"][0]["text"] == "1 / 1" and solved["ana"][0]["text"] == "1 / 0 *"
        assert solved["zed"][0]["label"] == "zed, stones: solved at minute 1, in 1 try"
        assert browser.execute_script("return window.loadedOnce === true;"), "the page was reloaded"
        assert severe_console_entries(browser) == []
    finally:
        if grade is not None and grade.poll() is None:
            grade.kill()
        stop(server)


def test_the_live_scoreboard_shows_control_characters_and_overrides_as_escapes(browser, tmp_path):
    accepted = SOLUTIONS / "stones/accepted/game_dp.py"
    folder = make_class(tmp_path / "subs", {"esc\x1b]0;x\x07/stones.py": accepted, "rtl\u202etxt.exe/stones.py": accepted,
                                            "bad\x01/stones.py": accepted})
    db = tmp_path / "results.db"
    assert run_judge("grade", str(folder), "--db", str(db)).returncode == 0
    server, url = start_scoreboard(db)
    try:
        browser.get(url)
        names = {row[1] for row in wait_for_rows(browser, 3)}
        assert names == {"esc\\x1b]0;x\\x07", "rtl\\u202etxt.exe", "bad\\x01"}
        assert severe_console_entries(browser) == []
    finally:
        stop(server)


def test_printing_shows_every_students_cases(browser, report):
    url, _ = report
    browser.get(url)
    visible = "return Array.from(document.querySelectorAll('details.student table.cases')).map((t) => t.checkVisibility())"
    on_screen = browser.execute_script(visible)
    assert on_screen and not any(on_screen)  # folded on screen
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert all(browser.execute_script(visible))
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
