"""The course judge's page in a real headless browser (as tests/test_browser.py drives it): a
student logs in with their token, sends a file, reads its rows as they come and their own
history; what a program prints is shown as text; the strict CSP leaves the page working (a
blocked script or style would be a console error). And the page's CSRF defence, over HTTP."""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request

import pytest
from test_browser import CHROMEDRIVER, CHROMIUM, MARKUP, browser, severe_console_entries  # noqa: F401 (fixture)
from test_course_server import BAD, GOOD, HIDDEN, WAIT, Server, course, write  # noqa: F401 (fixture)

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="browser tests need Debian's chromium and chromium-driver: apt-get install chromium chromium-driver")


@pytest.fixture
def server(course):  # noqa: F811 (the fixture imported above)
    running = Server(course, "--min-interval", "0")
    yield running
    running.stop()


def log_in(driver, server: Server, token: str) -> None:
    """Log in from the page, and wait for the page the form leads to (the student's, or the form
    again with its error)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(server.url + "/")
    driver.delete_all_cookies()  # whoever was logged in before
    driver.get(server.url + "/")
    login_form = driver.find_element(By.ID, "token")
    login_form.send_keys(token)
    driver.find_element(By.ID, "login-button").click()
    WebDriverWait(driver, WAIT).until(
        lambda _driver: _driver.find_elements(By.ID, "student") or _driver.find_elements(By.ID, "login-error"))


def send(driver, path, problem: str = "addup") -> str:
    """Send ``path`` from the page; the rows shown once its verdict came."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import Select, WebDriverWait

    Select(driver.find_element(By.ID, "problem")).select_by_value(problem)
    driver.find_element(By.ID, "file").send_keys(str(path))
    driver.find_element(By.ID, "send").click()
    rows = driver.find_element(By.ID, "rows")
    WebDriverWait(driver, WAIT).until(lambda _driver: rows.get_attribute("data-verdict"))
    WebDriverWait(driver, WAIT).until(expected_conditions.text_to_be_present_in_element((By.ID, "history"), path.name))
    return rows.text


def test_a_student_logs_in_submits_and_reads_the_rows_and_history(browser, course, server, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    log_in(browser, server, course["tokens"]["ana"])
    assert browser.find_element(By.ID, "student").text == "ana"
    shown = send(browser, write(tmp_path, "wrong.py", BAD))
    assert "hidden 2" in shown and "WA  2/3 cases passed" in shown
    assert not any(secret in browser.page_source for secret in HIDDEN)
    shown = send(browser, write(tmp_path, "right.py", GOOD))
    assert "AC  3/3 cases passed" in shown
    history = [row.text.split() for row in browser.find_elements(By.CSS_SELECTOR, "#history tbody tr")]
    assert [(row[2], row[4]) for row in history] == [("right.py", "AC"), ("wrong.py", "WA")]
    assert severe_console_entries(browser) == []


def test_what_a_program_prints_is_shown_as_text(browser, course, server, tmp_path):  # noqa: F811
    log_in(browser, server, course["tokens"]["ben"])
    shown = send(browser, write(tmp_path, "markup.py", f"print({MARKUP!r})\n"))
    assert MARKUP in shown  # the sample's output, as text: no script ran, none was added
    assert severe_console_entries(browser) == []


def test_an_unknown_token_is_told_on_the_page(browser, course, server):  # noqa: F811
    from selenium.webdriver.common.by import By

    log_in(browser, server, "not-a-token")
    assert "not known" in browser.find_element(By.ID, "login-error").text


def test_a_change_from_the_page_needs_its_csrf_token(course, server):  # noqa: F811
    form = urllib.parse.urlencode({"token": course["tokens"]["ana"]}).encode()

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(urllib.request.Request(server.url + "/login", data=form, method="POST"), timeout=WAIT)
        raise AssertionError("the login form answers with a redirect")
    except urllib.error.HTTPError as answer:
        assert answer.code == 303
        cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    # The cookie alone, as another site's form would send it: refused.
    forged = urllib.request.Request(server.url + "/api/submissions?problem=addup&file=a.py", data=GOOD.encode(),
                                    method="POST", headers={"Cookie": cookie.split(";")[0]})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(forged, timeout=WAIT)
    assert refused.value.code == 403 and b"CSRF" in refused.value.read()


def test_a_teacher_opens_the_class_report_from_the_page(browser, course, server, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    log_in(browser, server, course["tokens"]["ana"])
    assert not browser.find_elements(By.ID, "teacher")  # a student has no such links
    send(browser, write(tmp_path, "mine.py", GOOD))
    log_in(browser, server, course["tokens"]["tina"])
    browser.find_element(By.ID, "class-report").click()
    assert "ana" in browser.find_element(By.TAG_NAME, "table").text
    assert severe_console_entries(browser) == []


def test_a_refused_file_shows_its_sentence_and_not_the_last_files_rows(browser, course, server, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    log_in(browser, server, course["tokens"]["ana"])
    assert "AC  3/3 cases passed" in send(browser, write(tmp_path, "right.py", GOOD))
    browser.find_element(By.ID, "file").send_keys(str(write(tmp_path, "notes.txt", GOOD)))
    browser.find_element(By.ID, "send").click()
    error = browser.find_element(By.ID, "error")
    WebDriverWait(browser, WAIT).until(lambda _driver: error.text)
    assert "cannot tell the language of notes.txt" in error.text
    assert browser.find_element(By.ID, "rows").text == ""
