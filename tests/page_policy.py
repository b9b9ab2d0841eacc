"""What every page the judge writes promises its readers' browsers: a Content-Security-Policy that
lets in exactly the page's own inline script and style sheet (by hash: no 'unsafe-inline', no
style attribute), and the style sheet as written (not HTML-escaped, which would break its rules)."""

from __future__ import annotations

import base64
import hashlib
import re


def assert_only_its_own_script_and_style(page: str) -> None:
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "unsafe-inline" not in policy
    style = re.search(r"<style>(.*?)</style>", page, re.DOTALL).group(1)
    script = re.search(r"<script>(.*?)</script>", page, re.DOTALL).group(1)
    for source in (style, script):
        digest = base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy
    assert "&#34;" not in style and "&gt;" not in style  # the style sheet as written, not escaped
    assert ' style="' not in page
