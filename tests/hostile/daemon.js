// Leaves a detached daemon (its own session) with a recognisable command line, then answers.
const { spawn } = require("child_process");
const child = spawn("/bin/sleep", ["31337.52"], { detached: true, stdio: "ignore" });
child.unref();
const n = parseInt(require("fs").readFileSync(0, "utf8"), 10);
console.log(n % 2 ? "SK" : "CY");
