// Typical mistake: the winner also plays for the longest game instead of the shortest win.
function solution(board, aloc, bloc) {
  const rows = board.length, cols = board[0].length;
  function turn(me, other) {
    const [r, c] = me;
    if (board[r][c] === 0) return [false, 0];
    let win = null, lose = 0;
    for (const [nr, nc] of [[r + 1, c], [r - 1, c], [r, c + 1], [r, c - 1]]) {
      if (nr < 0 || nr >= rows || nc < 0 || nc >= cols || !board[nr][nc]) continue;
      board[r][c] = 0;
      const [otherWins, moves] = turn(other, [nr, nc]);
      board[r][c] = 1;
      if (!otherWins) win = win === null ? moves + 1 : Math.max(win, moves + 1);
      else lose = Math.max(lose, moves + 1);
    }
    return win !== null ? [true, win] : [false, lose];
  }
  return turn(aloc, bloc)[1];
}
