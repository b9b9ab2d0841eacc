// Writes to stdout without end, ignoring write errors.
const fs = require("fs");
const block = Buffer.alloc(1 << 16, "x");
for (;;) {
  try {
    fs.writeSync(1, block);
  } catch (error) {
    // the file-size cap: go on
  }
}
