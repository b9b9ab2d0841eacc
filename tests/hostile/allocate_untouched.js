// Allocates a 1 GiB ArrayBuffer and never writes it, then answers. Its pages are never touched,
// so they cost no memory: resident memory is what counts, and this is AC.
const block = new ArrayBuffer(1 << 30);
const n = parseInt(require("fs").readFileSync(0, "utf8"), 10);
console.log(block.byteLength > 0 && n % 2 ? "SK" : "CY");
