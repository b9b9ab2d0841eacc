// Recursion without end: RangeError (maximum call stack size exceeded), RE.
function down(n) {
  return down(n + 1) + 1;
}
console.log(down(0));
