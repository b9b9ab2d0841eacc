// Prints the right answer for n, then exits with status n % 256: any status but 0 is RE.
const n = parseInt(require("fs").readFileSync(0, "utf8"), 10);
console.log(n % 2 ? "SK" : "CY");
process.exitCode = n % 256;
