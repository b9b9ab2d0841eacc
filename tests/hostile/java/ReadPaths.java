// Tries to read each path given on stdin (one per line): prints READ and the path for every
// file it could read a byte of and every directory it could list an entry of.
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

public class ReadPaths {
    static boolean readable(String name) {
        Path path = Path.of(name);
        try {
            if (Files.isDirectory(path)) {
                try (Stream<Path> entries = Files.list(path)) {
                    return entries.findAny().isPresent();
                }
            }
            try (InputStream in = Files.newInputStream(path)) {
                return in.read() != -1;
            }
        } catch (Exception error) {
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            if (!line.isEmpty() && readable(line)) System.out.println("READ " + line);
        }
    }
}
