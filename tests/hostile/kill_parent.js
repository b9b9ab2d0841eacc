// Tries to kill the judge: its parent and every process it can reach. Then answers.
for (const [pid, signal] of [[process.ppid, "SIGKILL"], [-1, "SIGKILL"]]) {
  try {
    if (pid !== 0 && pid !== 1) process.kill(pid, signal);
  } catch (error) {
    // not allowed
  }
}
const n = parseInt(require("fs").readFileSync(0, "utf8"), 10);
console.log(n % 2 ? "SK" : "CY");
