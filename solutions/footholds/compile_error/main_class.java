// Typical mistake: the class is named Main, as a standard-I/O program's would be; the judge
// calls `new Solution().solution(...)`.
import java.util.*;

public class Main {
    public int solution(int[][] board, int[] aloc, int[] bloc) {
        return 0;
    }
}
