"use strict";
// Follows the standings the server pushes (server-sent events on /events) and redraws the table;
// text only (textContent), never markup, and classes, never style attributes (the CSP allows none).
// Each problem's cell carries its state as a class (its colour), as text and as a label. Without EventSource, or once the server refuses the
// stream, the page reloads itself now and then instead.
(function () {
  const RELOAD_SECONDS = 10;
  const table = document.getElementById("scoreboard");
  const status = document.getElementById("status");
  const frozen = document.getElementById("frozen");
  const icpc = table.dataset.mode === "icpc";
  let previous = new Map();

  // Student names come from file names: control characters and bidirectional overrides are shown
  // as escapes, as judge/text/visible_text.py shows them everywhere else (a lone surrogate, a byte
  // of a name that is not UTF-8, as that byte).
  const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  const escape = (char) => {
    const code = char.charCodeAt(0);
    if (code >= 0xdc80 && code <= 0xdcff) return "\\x" + (code - 0xdc00).toString(16).padStart(2, "0");
    return code <= 0xff ? "\\x" + code.toString(16).padStart(2, "0") : "\\u" + code.toString(16).padStart(4, "0");
  };
  const visible = (text) => String(text).replace(ACTING, escape);

  const cell = (tag, text, attributes) => {
    const element = document.createElement(tag);
    element.textContent = visible(text);
    Object.entries(attributes || {}).forEach(([name, value]) => element.setAttribute(name, value));
    return element;
  };

  const capitalised = (name) => name.charAt(0).toUpperCase() + name.slice(1);

  const drawHead = (headers, problemCount) => {
    const row = document.createElement("tr");
    headers.forEach((name, index) => {
      const isProblem = index >= 2 && index < 2 + problemCount;
      row.appendChild(cell("th", isProblem ? name : capitalised(name), { scope: "col" }));
    });
    table.tHead.replaceChildren(row);
  };

  const problemCell = (entry) => {
    const label = visible(entry.label);
    return cell("td", entry.text, { class: `cell state-${entry.state}`, "data-state": entry.state,
      title: label, "aria-label": label });
  };

  const draw = (data) => {
    drawHead(data.headers, data.problems.length);
    if (frozen && data.frozen_since) frozen.textContent = visible(data.frozen_since);
    const rows = data.rows.map((entry) => {
      const row = document.createElement("tr");
      row.appendChild(cell("td", String(entry.rank)));
      row.appendChild(cell("th", entry.student, { scope: "row" }));
      entry.cells.forEach((problem) => row.appendChild(problemCell(problem)));
      row.appendChild(cell("td", entry.total));
      if (icpc) row.appendChild(cell("td", String(entry.penalty)));
      const key = JSON.stringify(entry);
      if (previous.size && previous.get(entry.student) !== key) row.classList.add("changed");
      return [entry.student, key, row];
    });
    table.tBodies[0].replaceChildren(...rows.map(([, , row]) => row));
    previous = new Map(rows.map(([student, key]) => [student, key]));
    const waiting = data.waiting ? data.waiting + "; " : "";
    const judging = data.judging ? `, ${data.judging} being judged` : "";
    status.textContent = visible(`${waiting}${data.rows.length} students, ${data.submissions} submissions judged${judging}; updated ${data.updated}`);
  };

  const show = (data) => {
    if (data.error) status.textContent = visible("cannot read the results: " + data.error);
    else draw(data);
  };

  const reloadSoon = () => setTimeout(() => window.location.reload(), RELOAD_SECONDS * 1000);

  if (typeof EventSource === "undefined") {
    fetch("standings.json", { cache: "no-store" }).then((response) => response.json()).then(show)
      .catch(() => { status.textContent = "the scoreboard server is not answering"; }).finally(reloadSoon);
    return;
  }
  const events = new EventSource("events");
  events.onmessage = (message) => show(JSON.parse(message.data));
  events.onerror = () => {
    // CONNECTING: the browser retries by itself. CLOSED: the server refused the stream (503 when
    // it is full, say), and the browser gives up; a reload starts again.
    if (events.readyState === EventSource.CLOSED) {
      status.textContent = `the scoreboard server refused live updates; reloading in ${RELOAD_SECONDS} s`;
      reloadSoon();
    } else status.textContent = "the scoreboard server is not answering; retrying";
  };
})();
