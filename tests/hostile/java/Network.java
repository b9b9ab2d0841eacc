// Tries to reach a server on the host's loopback (the port comes on stdin); prints CONNECTED.
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Scanner;

public class Network {
    public static void main(String[] args) {
        int port = new Scanner(System.in).nextInt();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            System.out.println("CONNECTED " + port);
        } catch (Exception error) {
            System.out.println("refused: " + error);
        }
    }
}
