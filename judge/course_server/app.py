"""The course's judge over HTTP (Starlette): the API `judge submit` and `judge status` speak,
the teacher's routes, and the students' page.

A request names its sender with ``Authorization: Bearer TOKEN``, or, from the page, with the
token in an HttpOnly, SameSite=Strict cookie set by the login form, where every request that
changes something must also carry the session's CSRF token (``X-CSRF-Token``), which only the
page itself can read. Refusals are JSON ``{"error": SENTENCE}`` with their HTTP status. Nothing
in a request names a file of the server: uploads are kept in the store, and a problem is one of
the course's by name."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from judge.course_server.class_folder import class_zip
from judge.course_server.course import Course, Refusal
from judge.course_server.submissions import DONE, Upload
from judge.course_server.tokens import Identity
from judge.renderers.html_page import asset, csp_hash, environment

COOKIE = "judge_token"
CSRF_HEADER = "x-csrf-token"
MAX_ID = 2**63 - 1  # the largest SQLite integer
LOGIN_FORM_BYTES = 4096
KEEP_ALIVE_SECONDS = 15  # a waiting rows stream says so this often (proxies close silent streams)
PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
            "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                    "X-Frame-Options": "DENY", "Cache-Control": "no-store"}


class Changes:
    """Wakes the HTTP side's readers of an upload when its rows or state change; called from the
    judging threads. Each upload has its own event, so a row wakes only its own readers."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.events: dict[int, asyncio.Event] = {}

    def bind(self) -> None:
        self.loop = asyncio.get_running_loop()

    def event(self, upload_id: int) -> asyncio.Event:
        """The event set at the upload's next change (in the event loop's thread)."""
        return self.events.setdefault(upload_id, asyncio.Event())

    def changed(self, upload_id: int) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake, upload_id)

    def _wake(self, upload_id: int) -> None:
        event = self.events.pop(upload_id, None)
        if event is not None:
            event.set()


def refusal(status: int, sentence: str) -> JSONResponse:
    return JSONResponse({"error": sentence}, status_code=status, headers=SECURITY_HEADERS)


def build_app(course: Course) -> Starlette:
    changes = Changes()
    course.changed = changes.changed
    secret = secrets.token_bytes(32)  # the CSRF tokens' key, new with every start

    def csrf_for(token: str) -> str:
        return hmac.new(secret, token.encode("utf-8"), hashlib.sha256).hexdigest()

    def who(request: Request, changing: bool = False) -> Identity:
        """The sender, or Refusal: no token, an unknown one, or a page's change without its CSRF token."""
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            identity = course.identify(header[7:].strip())
        else:
            token = request.cookies.get(COOKIE)
            identity = course.identify(token)
            if identity is not None and changing and not hmac.compare_digest(
                    request.headers.get(CSRF_HEADER, "").encode(), csrf_for(token).encode()):
                raise Refusal(403, "this request lacks the page's CSRF token; reload the page and send again")
        if identity is None:
            raise Refusal(401, "no valid token: pass your token (`judge login`, or $JUDGE_TOKEN); "
                               "ask your teacher for one if you have none")
        return identity

    def teacher(request: Request, changing: bool = False) -> Identity:
        identity = who(request, changing)
        if not identity.is_teacher:
            raise Refusal(403, "only a teacher's token may use this")
        return identity

    def own_upload(request: Request, identity: Identity) -> Upload:
        number = request.path_params["upload_id"]
        known = number.isascii() and number.isdigit() and int(number) <= MAX_ID  # any other is nobody's
        upload = course.store.upload(int(number)) if known else None
        if upload is None:
            raise Refusal(404, "there is no such submission")
        if not (identity.is_teacher or upload.student == identity.name):
            raise Refusal(403, "this submission is not yours; `judge status` lists yours")
        return upload

    async def submit(request: Request) -> Response:
        identity = who(request, changing=True)
        body = await read_body(request, course.limits.upload_bytes, "file")
        upload = await run_in_threadpool(course.accept, identity, request.query_params.get("problem", ""),
                                         request.query_params.get("file", ""), body)
        return JSONResponse({"id": upload.id, "rows": f"/api/submissions/{upload.id}/rows",
                             "queued": course.queued()}, status_code=201, headers=SECURITY_HEADERS)

    async def submissions(request: Request) -> Response:
        everyone = bool(request.query_params.get("all"))
        identity = teacher(request) if everyone else who(request)  # a student asking for all is told no
        uploads = course.store.uploads(None if everyone else identity.name)
        return JSONResponse({"submissions": [upload.to_json() for upload in uploads]}, headers=SECURITY_HEADERS)

    async def submission(request: Request) -> Response:
        identity = who(request)
        upload = own_upload(request, identity)
        body = upload.to_json() | {"lines": course.store.lines(upload.id)}
        if identity.is_teacher:
            body["cases"] = course.store.cases(upload.id)
        return JSONResponse(body, headers=SECURITY_HEADERS)

    async def rows(request: Request) -> Response:
        upload = own_upload(request, who(request))
        return StreamingResponse(_rows(course, changes, upload.id), media_type="application/x-ndjson",
                                 headers=SECURITY_HEADERS)

    async def problems(request: Request) -> Response:
        who(request)
        return JSONResponse({"problems": course.open_problems}, headers=SECURITY_HEADERS)

    async def class_report(request: Request) -> Response:
        teacher(request)
        page = await run_in_threadpool(course.class_page)
        policy = (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                  f"script-src '{csp_hash(asset('report.js'))}'; frame-ancestors 'none'")
        return HTMLResponse(page, headers=SECURITY_HEADERS | {"Content-Security-Policy": policy})

    async def class_download(request: Request) -> Response:
        teacher(request)
        data = await run_in_threadpool(class_zip, course.store, course.last_counted())
        return Response(data, media_type="application/zip", headers=SECURITY_HEADERS | {
            "Content-Disposition": 'attachment; filename="class.zip"'})

    async def rejudge_preview(request: Request) -> Response:
        teacher(request, changing=True)
        return JSONResponse({"changes": await run_in_threadpool(course.rejudge_preview)}, headers=SECURITY_HEADERS)

    async def page(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        identity = course.identify(token)
        template = environment().get_template("course.html.j2")
        if identity is None:
            html = template.render(student=None, teacher=False, csrf="", problems=[], uploads=[],
                                   error=request.query_params.get("e"))
        else:
            html = template.render(student=identity.name, teacher=identity.is_teacher, csrf=csrf_for(token),
                                   problems=course.open_problems, error=None,
                                   uploads=list(reversed(course.store.uploads(identity.name))))
        return HTMLResponse(html, headers=SECURITY_HEADERS | {"Content-Security-Policy": PAGE_CSP})

    async def login(request: Request) -> Response:
        if from_another_site(request):  # its page would log the student in as whoever it chose
            raise Refusal(403, "this login form was sent from another site; log in from the judge's own page")
        form = parse_qs((await read_body(request, LOGIN_FORM_BYTES, "login form")).decode("utf-8", "replace"))
        token = (form.get("token") or [""])[0].strip()
        if course.identify(token) is None:
            return RedirectResponse("/?e=unknown", status_code=303)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=request.url.scheme == "https",
                            max_age=30 * 24 * 3600)
        return response

    async def logout(request: Request) -> Response:
        who(request, changing=True)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE)
        return response

    def static(name: str, media_type: str):
        content = asset(name)

        async def serve(_request: Request) -> Response:
            return Response(content, media_type=media_type, headers=SECURITY_HEADERS)
        return serve

    async def refused(_request: Request, error: Refusal) -> Response:
        return refusal(error.status, error.sentence)

    async def not_here(request: Request, error: HTTPException) -> Response:
        if error.status_code == 405:
            return refusal(405, f"{request.method} is not answered at {request.url.path}; the course judge's API "
                                f"reference lists each route's method")
        if error.status_code == 404:
            return refusal(404, f"there is nothing at {request.url.path}; the course judge's API reference lists its routes")
        return refusal(error.status_code, str(error.detail))

    async def gone(_request: Request, _error: ClientDisconnect) -> Response:
        return Response(status_code=400)  # read by nobody: the client left in the middle of its request

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        changes.bind()
        yield

    routes = [
        Route("/", page),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/course.js", static("course.js", "text/javascript")),
        Route("/course.css", static("course.css", "text/css")),
        Route("/favicon.ico", lambda _request: Response(status_code=204)),  # none: browsers ask anyway
        Route("/api/problems", problems),
        Route("/api/submissions", submissions),
        Route("/api/submissions", submit, methods=["POST"]),
        Route("/api/submissions/{upload_id}", submission),
        Route("/api/submissions/{upload_id}/rows", rows),
        Route("/api/class/report", class_report),
        Route("/api/class/download", class_download),
        Route("/api/class/rejudge-preview", rejudge_preview, methods=["POST"]),
    ]
    return Starlette(routes=routes, exception_handlers={
        Refusal: refused, HTTPException: not_here, ClientDisconnect: gone}, lifespan=lifespan)


async def read_body(request: Request, cap: int, what: str) -> bytes:
    """The request's body; Refusal (413) once it is past ``cap`` bytes, by its Content-Length
    or, sent in chunks, as it arrives (never held whole beyond the cap)."""
    too_big = Refusal(413, f"the {what} is over {cap} bytes; this judge accepts {what}s of up to {cap} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > cap:
        raise too_big
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            raise too_big
    return bytes(body)


def from_another_site(request: Request) -> bool:
    """Whether a browser sent this for another site's page: its Sec-Fetch-Site says so, or, from a
    browser that does not send one, its Origin names another host than the request's own."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("origin")
    # Host names only: a reverse proxy may pass on the host without the port the browser used.
    return origin is not None and urlsplit(origin).hostname != urlsplit("//" + request.headers.get("host", "")).hostname


async def _rows(course: Course, changes: Changes, upload_id: int) -> AsyncIterator[bytes]:
    """The upload's rows as newline-delimited JSON, each as soon as it is written: ``{"line"}``
    for each, ``{"queued": N}`` while it waits, then ``{"done": true, "verdict", "exit_status"}``."""
    sent = 0
    said_queued = False
    while True:
        wake = changes.event(upload_id)
        upload = course.store.upload(upload_id)  # its state before its lines: "done" means every line is there
        lines = course.store.lines(upload_id, sent)
        for line in lines:
            yield _event({"line": line})
        sent += len(lines)
        if upload.state == DONE:
            yield _event({"done": True, "verdict": upload.verdict, "score": upload.score,
                          "max_score": upload.max_score, "exit_status": upload.exit_status})
            return
        if upload.state == "queued" and not said_queued:
            said_queued = True
            yield _event({"queued": course.queued()})
        try:
            await asyncio.wait_for(wake.wait(), KEEP_ALIVE_SECONDS)
        except asyncio.TimeoutError:
            yield _event({"waiting": upload.state, "at": time.time()})


def _event(record: dict) -> bytes:
    return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
