"use strict";
// Sorting the class table by any column, and opening a student's details from the table.
// (The page must work without this script too: the table is already in rank order.)
(function () {
  const table = document.getElementById("class-table");
  if (!table) return;
  const headers = Array.from(table.querySelectorAll("thead th"));
  const value = (row, column, type) => {
    const text = row.children[column].dataset.sort;
    return type === "number" ? parseFloat(text) : text.toLocaleLowerCase();
  };
  const sortBy = (header, column, type) => {
    const ascending = header.getAttribute("aria-sort") !== "ascending";
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    rows.sort((a, b) => {
      const x = value(a, column, type), y = value(b, column, type);
      const order = x < y ? -1 : x > y ? 1 : 0;
      // Ties keep rank order, so equal scores stay in the standings' order.
      return (ascending ? order : -order) || value(a, 0, "number") - value(b, 0, "number");
    });
    rows.forEach((row) => body.appendChild(row));
    headers.forEach((other) => other.removeAttribute("aria-sort"));
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  };
  headers.forEach((header) => {
    const button = header.querySelector("button");
    if (!button) return;
    button.addEventListener("click", () => sortBy(header, Number(button.dataset.column), button.dataset.type));
  });
  document.querySelectorAll("a[data-opens]").forEach((link) => {
    link.addEventListener("click", () => {
      const details = document.getElementById(link.dataset.opens);
      if (details) details.open = true;
    });
  });
  // Printing shows every student's cases, not only the opened ones.
  window.addEventListener("beforeprint", () => {
    document.querySelectorAll("details").forEach((details) => { details.open = true; });
  });
})();
