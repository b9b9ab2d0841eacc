// Typical mistake: the positions taken as pairs rather than the vectors the judge passes.
#include <utility>
#include <vector>
using namespace std;

int solution(vector<vector<int>> board, pair<int, int> aloc, pair<int, int> bloc) {
    return 0;
}
