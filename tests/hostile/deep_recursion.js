// Recursion 100000 deep, which contest code does (a DFS on a path): within node's stack, AC.
function depth(n) {
  return n === 0 ? 0 : depth(n - 1) + 1;
}
const n = parseInt(require("fs").readFileSync(0, "utf8"), 10);
if (depth(100000) === 100000) console.log(n % 2 ? "SK" : "CY");
