package dev.idempotency.reliability.promise;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A client that leaves: it sends its request on a socket of its own and drops the connection (RST) {@code endAfter}
 * ms after sending. Meanwhile it reads nothing, or reads the answer slowly: 1 KB at a time through a small receive
 * buffer, with a pause of 5 ms between reads, so that a large answer is cut off in the middle of its download.
 */
final class LeavingClient {

    private LeavingClient() {}

    /** Sends {@code request} (raw HTTP/1.1) to {@code port} and leaves; the client saw no answer. */
    static Answer leave(int port, byte[] request, int endAfter, boolean reads, String id, int key)
            throws IOException, InterruptedException {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096); // before connecting, so that the window stays small
            try {
                socket.connect(new InetSocketAddress("127.0.0.1", port));
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
            } catch (IOException refused) {
                return Answer.none(id, key); // the application's JVM was killed (APP_KILLED): nothing to leave
            }
            long leaves = System.nanoTime() + endAfter * 1_000_000L;
            if (reads) {
                readSlowly(socket, leaves);
            }
            long left = (leaves - System.nanoTime()) / 1_000_000L;
            if (left > 0) {
                Thread.sleep(left); // the client goes away this long after sending: part of the history
            }
            socket.setSoLinger(true, 0);
        }
        return Answer.none(id, key);
    }

    private static void readSlowly(Socket socket, long leaves) throws IOException, InterruptedException {
        byte[] chunk = new byte[1024];
        InputStream in = socket.getInputStream();
        while (System.nanoTime() < leaves) {
            socket.setSoTimeout((int) Math.max(1, (leaves - System.nanoTime()) / 1_000_000L));
            try {
                if (in.read(chunk) < 0) {
                    return; // the whole answer came: the client still leaves when the history says
                }
            } catch (SocketTimeoutException nothingYet) {
                return; // its time is up
            }
            Thread.sleep(5); // the slow reader's pace: part of the history
        }
    }
}
