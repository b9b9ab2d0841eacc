// Fills a 512 MiB buffer (outside the JavaScript heap, which --max-old-space-size caps) under a
// 128 MiB limit: MLE, counted on resident memory.
const block = Buffer.alloc(512 << 20, 1);
console.log(block[0]);
