// Typical mistake: the function is named after the problem, not `solution`.
function disappearingFootholds(board, aloc, bloc) {
  return 0;
}
