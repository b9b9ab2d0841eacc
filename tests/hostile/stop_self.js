// Stops itself with SIGSTOP and would answer only if someone resumed it: nobody should.
process.kill(process.pid, "SIGSTOP");
const n = parseInt(require("fs").readFileSync(0, "utf8"), 10);
console.log(n % 2 ? "SK" : "CY");
