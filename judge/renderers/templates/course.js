// The course judge's page: sends the chosen file, then shows its rows as the server decides them.
"use strict";

function csrf() {
  return document.getElementById("upload").dataset.csrf;
}

function showError(text) {
  const error = document.getElementById("error");
  error.textContent = text;
  error.hidden = !text;
}

async function readRows(url, rows) {
  const response = await fetch(url, { credentials: "same-origin" });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop();
    for (const text of lines) {
      if (!text) continue;
      const event = JSON.parse(text);
      if ("line" in event) rows.textContent += event.line + "\n";
      if (event.done) {
        rows.dataset.verdict = event.verdict;
        document.dispatchEvent(new Event("judged"));
      }
    }
  }
}

async function send(event) {
  event.preventDefault();
  showError("");
  const file = document.getElementById("file").files[0];
  const problem = document.getElementById("problem").value;
  if (!file) return;
  const rows = document.getElementById("rows");
  rows.textContent = "";  // a refused file must not seem to have the last one's rows
  delete rows.dataset.verdict;
  const query = new URLSearchParams({ problem: problem, file: file.name });
  let response;
  try {
    response = await fetch("/api/submissions?" + query, {
      method: "POST", credentials: "same-origin", body: file,
      headers: { "X-CSRF-Token": csrf(), "Content-Type": "application/octet-stream" },
    });
  } catch {
    showError("Cannot reach the course judge; check your connection and send the file again.");
    return;
  }
  // A refusal of the judge's is JSON with its sentence; a proxy's (a file too large for it) is not.
  const answer = await response.json().catch(() => ({}));
  if (!response.ok || !answer.rows) {
    showError(answer.error || `The server answered ${response.status} ${response.statusText}; tell your teacher.`);
    return;
  }
  await readRows(answer.rows, rows);
  refreshHistory();
}

async function refreshHistory() {
  const response = await fetch("/api/submissions", { credentials: "same-origin" });
  const body = document.querySelector("#history tbody");
  body.replaceChildren();
  for (const upload of (await response.json()).submissions.reverse()) {
    const row = document.createElement("tr");
    const score = upload.score === null ? "" : `${upload.score}/${upload.max_score}`;
    for (const cell of [upload.id, upload.problem, upload.file_name, upload.state, upload.verdict || "", score]) {
      const td = document.createElement("td");
      td.textContent = String(cell);  // text, never markup: names come from students
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}

async function logout() {
  await fetch("/logout", { method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrf() } });
  location.assign("/");
}

document.addEventListener("DOMContentLoaded", () => {
  const upload = document.getElementById("upload");
  if (upload) {
    upload.addEventListener("submit", send);
    document.getElementById("logout").addEventListener("click", logout);
  }
});
