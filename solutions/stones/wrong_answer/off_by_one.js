// Typical mistake: a table indexed from 0 that is read one place off.
const n = parseInt(require("fs").readFileSync(0, "utf8"), 10);
const win = [false, true, false, true];
for (let i = 4; i <= n; i++) win.push(!win[i - 1] || !win[i - 3]);
console.log(win[n - 1] ? "SK" : "CY");
