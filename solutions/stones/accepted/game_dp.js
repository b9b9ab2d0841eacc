// Dynamic programming over the game: a position is winning if some move leads to a losing one.
const n = parseInt(require("fs").readFileSync(0, "utf8").trim(), 10);
const win = new Array(n + 1).fill(false);
for (let stones = 1; stones <= n; stones++) {
  win[stones] = [1, 3].some((take) => take <= stones && !win[stones - take]);
}
console.log(win[n] ? "SK" : "CY");
