// Tries to read each path given on stdin (one per line): prints READ and the path for every
// file it could read a byte of and every directory it could list an entry of.
const fs = require('fs');

function readable(path) {
  try {
    if (fs.statSync(path).isDirectory()) return fs.readdirSync(path).length > 0;
    const fd = fs.openSync(path, 'r');
    const read = fs.readSync(fd, Buffer.alloc(1), 0, 1, 0);
    fs.closeSync(fd);
    return read > 0;
  } catch (error) {
    return false;
  }
}

for (const path of fs.readFileSync(0, 'utf8').split('\n')) {
  if (path && readable(path)) console.log('READ ' + path);
}
