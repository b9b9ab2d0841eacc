// Minimax with a memo keyed by the board and both positions (the board as a bit mask).
function solution(board, aloc, bloc) {
  const rows = board.length, cols = board[0].length;
  let cells = 0;
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (board[r][c]) cells |= 1 << (r * cols + c);
  const memo = new Map();
  function play(mask, me, other) {
    const key = `${mask},${me},${other}`;
    if (memo.has(key)) return memo.get(key);
    const [r, c] = [Math.floor(me / cols), me % cols];
    let answer;
    if (!(mask >> me & 1)) answer = [false, 0];
    else {
      let win = null, lose = 0;
      for (const [nr, nc] of [[r + 1, c], [r - 1, c], [r, c + 1], [r, c - 1]]) {
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols || !(mask >> (nr * cols + nc) & 1)) continue;
        const [otherWins, moves] = play(mask & ~(1 << me), other, nr * cols + nc);
        if (!otherWins) win = win === null ? moves + 1 : Math.min(win, moves + 1);
        else lose = Math.max(lose, moves + 1);
      }
      answer = win !== null ? [true, win] : [false, lose];
    }
    memo.set(key, answer);
    return answer;
  }
  return play(cells, aloc[0] * cols + aloc[1], bloc[0] * cols + bloc[1])[1];
}
