// Runs inside the sandbox: call the submission's `solution(...args)` and print the result as JSON.
// Arguments arrive as a JSON list on stdin. The submission's console output goes to stderr, so the
// result on stdout cannot be forged by printing. Imports nothing of the judge.
"use strict";
const fs = require("fs");
const path = process.argv[2];

function fail(message) {
  fs.writeSync(2, "\n" + message + "\n");
  process.exit(1);
}

function whereIn(error) {
  const match = String(error && error.stack || "").match(/solution\.[cm]?js:(\d+)/);
  return match ? ` (solution.js, line ${match[1]})` : "";
}

const args = JSON.parse(fs.readFileSync(0, "utf8"));
const toStderr = (...parts) => fs.writeSync(2, parts.map(String).join(" ") + "\n");
console.log = console.info = console.warn = console.debug = toStderr;
const realWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk) => { fs.writeSync(2, String(chunk)); return true; };

// A CommonJS file defines `function solution` or exports it; an ES module (.mjs) exports it.
function loadCommonJs() {
  const source = fs.readFileSync(path, "utf8");
  const module = { exports: {} };
  const load = require("vm").compileFunction(
    source + "\n;return typeof solution === 'function' ? solution"
      + " : typeof Solution === 'function' && typeof Solution.prototype.solution === 'function' ? Solution"
      + " : undefined;",
    ["require", "module", "exports"], { filename: "solution.js" });
  return load(require, module, module.exports)
    || (typeof module.exports === "function" ? module.exports : module.exports.solution);
}

async function loadModule() {
  const loaded = await import(require("url").pathToFileURL(path).href);
  return typeof loaded.solution === "function" ? loaded.solution : loaded.default;
}

async function main() {
  let solution;
  try {
    solution = path.endsWith(".mjs") ? await loadModule() : loadCommonJs();
  } catch (error) {
    fail(`loading the submission failed: ${error && error.name}: ${error && error.message}${whereIn(error)}`);
  }
  if (typeof solution === "function" && typeof solution.prototype?.solution === "function"
      && solution.name === "Solution") {
    fail("`solution` is a method of class Solution; JavaScript submissions define a top-level "
         + "`function solution(...)` (or export it)");
  }
  if (typeof solution !== "function") fail("the submission defines no function `solution`");

  let result;
  try {
    result = solution(...args);
  } catch (error) {
    if (error instanceof RangeError && /call stack/.test(error.message)) {
      fail(`RangeError: ${error.message}${whereIn(error)}`);
    }
    fail(`${error && error.name || "Error"}: ${error && error.message || error}${whereIn(error)}`);
  }
  const text = JSON.stringify(result === undefined ? null : result);
  realWrite(text);
}

main();
