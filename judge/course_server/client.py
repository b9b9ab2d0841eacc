"""What `judge submit`, `judge status` and `judge login` speak to a course's judge: HTTP with
the standard library alone (no sandbox, nothing of one system), so a student's Windows or macOS
machine runs them as Linux does. A refusal is a ``ClientError`` carrying the server's sentence."""

from __future__ import annotations

import http.client
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from judge.errors import UsageError

SERVER_ENV, TOKEN_ENV, CONFIG_ENV = "JUDGE_SERVER", "JUDGE_TOKEN", "JUDGE_CONFIG"
TIMEOUT = 60  # seconds without a byte from the server (its rows streams say something every 15 s)


class ClientError(UsageError):
    """The server refused or could not be reached: one sentence, printed as such."""


def config_path() -> Path:
    """Where `judge login` keeps the server and token: $JUDGE_CONFIG, else the system's place."""
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV])
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "judge" / "login.json"
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "judge" / "login.json"


def save_login(server: str, token: str) -> Path:
    """Keep ``server`` and ``token`` in the config file, readable by its owner only."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump({"server": server, "token": token}, file)
    return path


def saved_login() -> dict:
    path = config_path()
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot read {path} ({error}); run `judge login` again") from None


def connection(server: str | None) -> tuple[str, str]:
    """The server's address and the token: --server, else $JUDGE_SERVER, else `judge login`'s;
    $JUDGE_TOKEN, else `judge login`'s."""
    saved = saved_login()
    server = server or os.environ.get(SERVER_ENV) or saved.get("server")
    token = os.environ.get(TOKEN_ENV) or saved.get("token")
    if not server:
        raise UsageError(f"which course judge? pass --server URL, set ${SERVER_ENV}, or run `judge login --server URL`")
    if not token:
        raise UsageError(f"no token: set ${TOKEN_ENV}, or run `judge login --server {server}`")
    if urllib.parse.urlsplit(server).scheme not in ("http", "https"):
        raise UsageError(f"--server must be an http:// or https:// address, got {server!r}")
    return server.rstrip("/"), token


class Client:
    def __init__(self, server: str, token: str) -> None:
        self.server, self.token = server, token

    def _request(self, method: str, path: str, body: bytes | None = None):
        request = urllib.request.Request(self.server + path, data=body, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/octet-stream"})
        try:
            return urllib.request.urlopen(request, timeout=TIMEOUT)
        except urllib.error.HTTPError as error:
            raise ClientError(_sentence(error, self.server)) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise ClientError(f"cannot reach the course judge at {self.server} ({reason}); check the address "
                              f"and your connection") from None

    def json(self, method: str, path: str, body: bytes | None = None, keys: tuple[str, ...] = ()) -> dict:
        with self._request(method, path, body) as response:
            try:
                data = response.read()
            except (OSError, http.client.HTTPException) as error:
                raise self._lost(error) from None
        return self._answer(data, keys)

    def _answer(self, data: bytes, keys: tuple[str, ...]) -> dict:
        """The JSON object, with ``keys``, that a course judge answers; ClientError if ``data`` is not
        one (another server at the address, or a network's login page answering in its place)."""
        try:
            answer = json.loads(data.decode("utf-8"))
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or not all(key in answer for key in keys):
            raise self._not_a_judge()
        return answer

    def _not_a_judge(self) -> ClientError:
        return ClientError(f"{self.server} did not answer as a course judge does; check --server (the address "
                           f"your teacher gave you, or `judge serve` printed), and that no network login page "
                           f"stands in the way")

    def _lost(self, error: Exception) -> ClientError:
        """The connection dropped mid-answer: the server stopped, or the network."""
        return ClientError(f"lost the connection to the course judge at {self.server} ({error}); "
                           f"`judge status` shows the submission once it is judged")

    def submit(self, problem: str, file: Path) -> dict:
        """Upload ``file`` for ``problem``: the server's ``{"id", "rows"}``."""
        query = urllib.parse.urlencode({"problem": problem, "file": file.name})
        sent = self.json("POST", f"/api/submissions?{query}", file.read_bytes(), keys=("id", "rows"))
        if not str(sent["rows"]).startswith("/api/"):  # a path of this server's, never another address
            raise self._not_a_judge()
        return sent

    def rows(self, path: str) -> Iterator[dict]:
        """The events of a submission's rows stream, as they come."""
        with self._request("GET", path) as response:
            try:
                for line in response:
                    if line.strip():
                        event = self._answer(line, ())
                        yield self._answer(line, ("exit_status",)) if event.get("done") else event
            except (OSError, http.client.HTTPException) as error:
                raise self._lost(error) from None

    def submissions(self, everyone: bool = False) -> list[dict]:
        answer = self.json("GET", "/api/submissions" + ("?all=1" if everyone else ""), keys=("submissions",))
        if not isinstance(answer["submissions"], list):
            raise self._not_a_judge()
        return answer["submissions"]


def _sentence(error: urllib.error.HTTPError, server: str) -> str:
    """The server's sentence for a refusal (its JSON ``error``), else the HTTP status's own."""
    try:
        return json.loads(error.read().decode("utf-8"))["error"]
    except (ValueError, KeyError, TypeError, OSError):
        if error.code in (502, 503, 504):  # a proxy's answer for a judge that is down
            return (f"{server} answered {error.code} {error.reason}: the course judge behind it is down; "
                    f"try again later, or tell your teacher")
        return (f"{server} answered {error.code} {error.reason}, not as a course judge does; "
                f"check the address your teacher gave you")
