// Allocates 2 GiB of longs: over the heap cap, OutOfMemoryError, MLE. (Java zeroes every array
// it allocates, so there is no untouched allocation to try.)
public class AllocateHuge {
    public static void main(String[] args) {
        long[] block = new long[1 << 28];
        System.out.println(block.length);
    }
}
