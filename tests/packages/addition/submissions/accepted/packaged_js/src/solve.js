// The entry file: package.json's main names it (as "./src/solve", resolved as node does).
const { add } = require("./arithmetic.js");
const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\s+/).map(Number);
console.log(add(a, b));
