package dev.idempotency.reliability;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A TCP proxy on a free loopback port in front of one Redis server, for the network faults a server process cannot
 * produce by itself. Point a connection factory at {@link #port()} and switch modes while it runs:
 *
 * <ul>
 *   <li>{@link #pass()}: forward both ways;
 *   <li>{@link #delay(Duration)}: forward each command that much later;
 *   <li>{@link #pause()} / {@link #pass()}: hold every byte in both directions, then deliver it (a network stall, as TCP
 *       would retransmit; nothing is lost);
 *   <li>{@link #blackHole()}: accept connections but forward nothing and discard what arrives; the connections whose
 *       bytes were discarded are closed when the mode changes again, since their streams are corrupt;
 *   <li>{@link #reset()}: reset every connection and every new one at once;
 *   <li>{@link #dropReplies}: forward matching commands to Redis, so they take effect, but swallow Redis's replies (a
 *       reply lost on the way back); {@link #dropAllReplies(boolean)} does it for every reply while set.
 * </ul>
 *
 * <p>A {@linkplain #startRaw raw} proxy copies bytes without looking at them (for a replication link, whose stream is not
 * request/reply); its delay applies in both directions, and reply dropping does not apply.
 *
 * <p>The proxy parses the RESP streams in both directions so that it knows which reply answers which command. A
 * connection that lost a reply is <em>poisoned</em>: it delivers nothing more and is closed after the rule's delay (or
 * when {@link #dropAllReplies(boolean) dropping stops}), as a real connection that loses data breaks. Without that,
 * Lettuce would hand every later reply to the command before it.
 */
public final class FaultProxy implements AutoCloseable {

    /** How commands and replies are treated right now. */
    enum Mode {
        PASS,
        DELAY,
        PAUSE,
        BLACK_HOLE,
        RESET
    }

    private static final int LOG_LIMIT = 200_000;
    private static final Pending FORWARD = new Pending(null);

    private volatile InetSocketAddress target;
    private final boolean raw;
    private final ServerSocket server;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final List<DropRule> rules = new CopyOnWriteArrayList<>();
    private final List<Command> forwarded = new ArrayList<>();
    private final Object gate = new Object();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger droppedReplies = new AtomicInteger();
    private final AtomicInteger linkIds = new AtomicInteger();
    private final ScheduledExecutorService closer =
            Executors.newSingleThreadScheduledExecutor(daemon("fault-proxy-closer"));
    private volatile Mode mode = Mode.PASS;
    private volatile long delayMillis;
    private volatile boolean dropAll;
    private volatile boolean holdReplies;
    private volatile boolean closed;

    private FaultProxy(String host, int port, boolean raw) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.raw = raw;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy on a free port of 127.0.0.1 forwarding to {@code host:port}. */
    public static FaultProxy start(String host, int port) {
        return create(host, port, false);
    }

    /** A proxy that copies bytes without parsing them, e.g. for a replica's link to its master. */
    static FaultProxy startRaw(String host, int port) {
        return create(host, port, true);
    }

    private static FaultProxy create(String host, int port, boolean raw) {
        try {
            return new FaultProxy(host, port, raw);
        } catch (IOException ex) {
            throw new IllegalStateException("Could not start the fault proxy", ex);
        }
    }

    String host() {
        return "127.0.0.1";
    }

    public int port() {
        return server.getLocalPort();
    }

    public void pass() {
        setMode(Mode.PASS);
    }

    void delay(Duration delay) {
        delayMillis = delay.toMillis();
        setMode(Mode.DELAY);
    }

    public void pause() {
        setMode(Mode.PAUSE);
    }

    void blackHole() {
        setMode(Mode.BLACK_HOLE);
    }

    /** Resets every open connection and, until the mode changes, every new one. */
    void reset() {
        setMode(Mode.RESET);
        links.forEach(Link::close);
    }

    /** Closes every open connection now, whatever the mode; clients reconnect. */
    public void resetConnections() {
        links.forEach(Link::close);
    }

    /** Forwards new connections to {@code host:port} from now on and closes the open ones (a failover's switch). */
    public void retarget(String host, int port) {
        target = new InetSocketAddress(host, port);
        resetConnections();
    }

    /**
     * Forwards the next {@code count} commands that match to Redis and swallows their replies; each connection that
     * lost a reply is closed {@code closeAfter} later (zero: at once, as when a connection breaks right after Redis
     * executed the command; longer than the client's command timeout: the client times out first).
     */
    void dropReplies(Predicate<Command> matcher, int count, Duration closeAfter) {
        rules.add(new DropRule(matcher, new AtomicInteger(count), closeAfter));
    }

    /** While set, every reply is swallowed; clearing it closes the connections that lost replies. */
    public void dropAllReplies(boolean drop) {
        dropAll = drop;
        if (!drop) {
            closePoisoned();
        }
    }

    /**
     * While set, replies wait in the proxy and commands still reach Redis: Redis executes a command whose answer the
     * client gets only once this is cleared, as long after as the test wants.
     */
    public void holdReplies(boolean hold) {
        synchronized (gate) {
            holdReplies = hold;
            gate.notifyAll();
        }
    }

    /** Replies swallowed so far. */
    int droppedReplies() {
        return droppedReplies.get();
    }

    /** Client connections accepted so far. */
    int connectionsAccepted() {
        return accepted.get();
    }

    /** How many forwarded commands match, e.g. to see a command that a client sent twice. */
    int forwardedMatching(Predicate<Command> matcher) {
        synchronized (forwarded) {
            return (int) forwarded.stream().filter(matcher).count();
        }
    }

    @Override
    public void close() {
        closed = true;
        setMode(Mode.RESET);
        try {
            server.close();
        } catch (IOException ex) {
            // closing anyway
        }
        links.forEach(Link::close);
        closer.shutdownNow();
    }

    private void setMode(Mode next) {
        Mode previous;
        synchronized (gate) {
            previous = mode;
            mode = next;
            gate.notifyAll();
        }
        if (previous == Mode.BLACK_HOLE && next != Mode.BLACK_HOLE) {
            closePoisoned();
        }
    }

    private void closePoisoned() {
        links.stream().filter(link -> link.poisoned).forEach(Link::close);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException ex) {
                return; // server socket closed
            }
            accepted.incrementAndGet();
            if (mode == Mode.RESET) {
                abort(client);
                continue;
            }
            try {
                Socket redis = new Socket();
                redis.connect(target, 1000);
                Link link = new Link(linkIds.incrementAndGet(), client, redis);
                links.add(link);
                link.start();
            } catch (IOException ex) {
                abort(client); // Redis is down: the client sees its connection closed, as with a refused connect
            }
        }
    }

    /** Waits while paused (a reply also while replies are held); answers whether the bytes may go on. */
    private boolean passGate(Link link, boolean reply) throws IOException {
        synchronized (gate) {
            while ((mode == Mode.PAUSE || (reply && holdReplies)) && !link.closed && !closed) {
                try {
                    gate.wait(50);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", ex);
                }
            }
        }
        Mode now = mode;
        if (now == Mode.RESET || link.closed) {
            link.close();
            throw new EOFException("reset");
        }
        if (now == Mode.BLACK_HOLE) {
            link.poisoned = true;
            return false;
        }
        return true;
    }

    /** How late bytes in this direction are delivered: commands (and, raw, both directions) in DELAY mode. */
    private long delayFor(boolean upstream) {
        return mode == Mode.DELAY && (upstream || raw) ? delayMillis : 0;
    }

    private Pending decide(Command command) {
        for (DropRule rule : rules) {
            if (rule.remaining.get() > 0 && rule.matcher.test(command) && rule.remaining.getAndDecrement() > 0) {
                return new Pending(rule.closeAfter);
            }
        }
        return FORWARD;
    }

    private void log(Command command) {
        synchronized (forwarded) {
            if (forwarded.size() < LOG_LIMIT) {
                forwarded.add(command);
            }
        }
    }

    /** One client connection and its connection to Redis, with a pump thread per direction. */
    private final class Link {

        private final Socket client;
        private final Socket redis;
        private final int id;
        /** One entry per command forwarded and not yet answered: what to do with its reply. */
        private final ArrayDeque<Pending> pending = new ArrayDeque<>();

        private volatile boolean poisoned;
        private volatile boolean closed;
        private Sender toRedis;
        private Sender toClient;

        Link(int id, Socket client, Socket redis) throws IOException {
            this.id = id;
            this.client = client;
            this.redis = redis;
            client.setTcpNoDelay(true);
            redis.setTcpNoDelay(true);
        }

        void start() throws IOException {
            toRedis = new Sender(this, redis.getOutputStream(), "fault-proxy-to-redis-" + id);
            toClient = new Sender(this, client.getOutputStream(), "fault-proxy-to-client-" + id);
            if (raw) {
                thread("fault-proxy-up-" + id, () -> copy(client, redis, true)).start();
                thread("fault-proxy-down-" + id, () -> copy(redis, client, false))
                        .start();
            } else {
                thread("fault-proxy-up-" + id, this::pumpCommands).start();
                thread("fault-proxy-down-" + id, this::pumpReplies).start();
            }
        }

        private void copy(Socket from, Socket to, boolean upstream) {
            byte[] buffer = new byte[64 * 1024];
            Sender sender = upstream ? toRedis : toClient;
            try (InputStream in = from.getInputStream()) {
                int read;
                while (!closed && (read = in.read(buffer)) >= 0) {
                    if (passGate(this, !upstream)) {
                        sender.send(Arrays.copyOf(buffer, read), delayFor(upstream));
                    }
                }
            } catch (IOException ex) {
                // connection gone
            } finally {
                close();
            }
        }

        private void pumpCommands() {
            try (InputStream in = new BufferedInputStream(client.getInputStream(), 64 * 1024)) {
                while (!closed) {
                    Frame frame = Resp.readCommand(in);
                    if (frame == null) {
                        break;
                    }
                    if (!passGate(this, false)) {
                        continue;
                    }
                    Command command = new Command(frame.args());
                    Pending decision = decide(command);
                    synchronized (pending) {
                        pending.add(decision);
                    }
                    log(command);
                    toRedis.send(frame.raw(), delayFor(true));
                }
            } catch (IOException ex) {
                // connection gone
            } finally {
                close();
            }
        }

        private void pumpReplies() {
            try (InputStream in = new BufferedInputStream(redis.getInputStream(), 64 * 1024)) {
                while (!closed) {
                    Frame frame = Resp.readReply(in);
                    if (frame == null) {
                        break;
                    }
                    Pending decision = FORWARD;
                    if (!frame.push()) {
                        synchronized (pending) {
                            Pending next = pending.poll();
                            decision = next == null ? FORWARD : next;
                        }
                    }
                    if (poisoned || dropAll || decision.closeAfter() != null) {
                        swallow(decision.closeAfter());
                        continue;
                    }
                    if (!passGate(this, true)) {
                        continue;
                    }
                    toClient.send(frame.raw(), delayFor(false));
                }
            } catch (IOException ex) {
                // connection gone
            } finally {
                close();
            }
        }

        private void swallow(Duration closeAfter) {
            droppedReplies.incrementAndGet();
            boolean first = !poisoned;
            poisoned = true;
            if (first && closeAfter != null) {
                if (closeAfter.isZero()) {
                    close();
                } else {
                    closer.schedule(this::close, closeAfter.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        }

        void close() {
            if (closed) {
                return;
            }
            closed = true;
            links.remove(this);
            abort(client);
            try {
                redis.close();
            } catch (IOException ex) {
                // closing anyway
            }
        }
    }

    /**
     * Writes byte chunks to one socket in order, each no earlier than its due time: a delay adds latency without
     * limiting throughput (pipelined commands are not delayed one after another).
     */
    private static final class Sender {

        private final Link link;
        private final OutputStream out;
        private final LinkedBlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();

        Sender(Link link, OutputStream out, String name) {
            this.link = link;
            this.out = out;
            thread(name, this::run).start();
        }

        void send(byte[] bytes, long delayMillis) {
            queue.add(new Chunk(bytes, System.nanoTime() + delayMillis * 1_000_000));
        }

        private void run() {
            try {
                while (!link.closed) {
                    Chunk chunk = queue.poll(50, TimeUnit.MILLISECONDS);
                    if (chunk == null) {
                        continue;
                    }
                    long wait = chunk.due() - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    out.write(chunk.bytes());
                    if (queue.isEmpty()) {
                        out.flush();
                    }
                }
            } catch (IOException ex) {
                // connection gone
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            } finally {
                link.close();
            }
        }

        private record Chunk(byte[] bytes, long due) {}
    }

    /** What to do with the reply of one forwarded command: {@code closeAfter == null} forwards it. */
    private record Pending(Duration closeAfter) {}

    private record DropRule(Predicate<Command> matcher, AtomicInteger remaining, Duration closeAfter) {}

    /** A command as the client sent it: its name and arguments. */
    record Command(List<byte[]> args) {

        String name() {
            return args.isEmpty() ? "" : new String(args.get(0), StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
        }

        String arg(int index) {
            return index < args.size() ? new String(args.get(index), StandardCharsets.UTF_8) : "";
        }

        int size() {
            return args.size();
        }

        /** Whether any argument is exactly {@code value}, e.g. a key. */
        boolean mentions(String value) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            return args.stream().anyMatch(arg -> Arrays.equals(arg, bytes));
        }

        /**
         * Whether this is a script call ({@code EVALSHA}/{@code EVAL}) on exactly these keys whose first argument
         * after the keys starts with {@code argPrefix}.
         */
        boolean isScript(List<String> keys, String argPrefix) {
            String name = name();
            if (!name.equals("EVALSHA") && !name.equals("EVAL")) {
                return false;
            }
            if (!arg(2).equals(Integer.toString(keys.size()))) {
                return false;
            }
            for (int i = 0; i < keys.size(); i++) {
                if (!arg(3 + i).equals(keys.get(i))) {
                    return false;
                }
            }
            return arg(3 + keys.size()).startsWith(argPrefix);
        }

        @Override
        public String toString() {
            return name() + " (" + args.size() + " args)";
        }
    }

    /** One RESP frame: the raw bytes, and the arguments of a command. */
    private record Frame(byte[] raw, List<byte[]> args, boolean push) {}

    /** Just enough RESP2/RESP3 parsing to find frame boundaries. */
    private static final class Resp {

        private Resp() {}

        static Frame readCommand(InputStream in) throws IOException {
            int first = in.read();
            if (first < 0) {
                return null;
            }
            ByteArrayOutputStream raw = new ByteArrayOutputStream(64);
            raw.write(first);
            List<byte[]> args = new ArrayList<>();
            if (first != '*') { // inline command
                String line = (char) first + readLine(in, raw);
                for (String part : line.trim().split(" +")) {
                    args.add(part.getBytes(StandardCharsets.UTF_8));
                }
                return new Frame(raw.toByteArray(), args, false);
            }
            int count = Integer.parseInt(readLine(in, raw));
            for (int i = 0; i < count; i++) {
                int type = in.read();
                if (type != '$') {
                    throw new IOException("Expected a bulk string in a command, got " + type);
                }
                raw.write(type);
                int length = Integer.parseInt(readLine(in, raw));
                byte[] data = in.readNBytes(length + 2);
                if (data.length < length + 2) {
                    throw new EOFException();
                }
                raw.write(data);
                args.add(Arrays.copyOf(data, length));
            }
            return new Frame(raw.toByteArray(), args, false);
        }

        static Frame readReply(InputStream in) throws IOException {
            ByteArrayOutputStream raw = new ByteArrayOutputStream(64);
            int type = readValue(in, raw, true);
            if (type < 0) {
                return null;
            }
            return new Frame(raw.toByteArray(), List.of(), type == '>');
        }

        /** Reads one value into {@code raw}; returns its type byte, or -1 at the end of the stream. */
        private static int readValue(InputStream in, ByteArrayOutputStream raw, boolean top) throws IOException {
            int type = in.read();
            if (type < 0) {
                if (top) {
                    return -1;
                }
                throw new EOFException();
            }
            raw.write(type);
            String line = readLine(in, raw);
            switch (type) {
                case '+', '-', ':', '_', '#', ',', '(' -> {}
                case '$', '!', '=' -> {
                    int length = Integer.parseInt(line);
                    if (length >= 0) {
                        byte[] data = in.readNBytes(length + 2);
                        if (data.length < length + 2) {
                            throw new EOFException();
                        }
                        raw.write(data);
                    }
                }
                case '*', '~', '>' -> {
                    int count = Integer.parseInt(line);
                    for (int i = 0; i < count; i++) {
                        readValue(in, raw, false);
                    }
                }
                case '%' -> {
                    int count = Integer.parseInt(line);
                    for (int i = 0; i < 2 * count; i++) {
                        readValue(in, raw, false);
                    }
                }
                case '|' -> { // attributes precede the value they describe
                    int count = Integer.parseInt(line);
                    for (int i = 0; i < 2 * count; i++) {
                        readValue(in, raw, false);
                    }
                    return readValue(in, raw, false);
                }
                default -> throw new IOException("Unknown RESP type " + type);
            }
            return type;
        }

        private static String readLine(InputStream in, ByteArrayOutputStream raw) throws IOException {
            StringBuilder line = new StringBuilder();
            while (true) {
                int b = in.read();
                if (b < 0) {
                    throw new EOFException();
                }
                raw.write(b);
                if (b == '\r') {
                    int lf = in.read();
                    if (lf < 0) {
                        throw new EOFException();
                    }
                    raw.write(lf);
                    return line.toString();
                }
                line.append((char) b);
            }
        }
    }

    private static void abort(Socket socket) {
        try {
            socket.setSoLinger(true, 0); // RST instead of FIN, as a broken connection looks
        } catch (IOException ex) {
            // closing anyway
        }
        try {
            socket.close();
        } catch (IOException ex) {
            // closing anyway
        }
    }

    private static Thread thread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> thread(name, runnable);
    }
}
