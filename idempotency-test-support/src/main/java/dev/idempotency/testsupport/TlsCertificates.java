package dev.idempotency.testsupport;

import io.lettuce.core.SslOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away certificate chain for one TLS server, made with the {@code openssl} command in the server's temp
 * directory: a self-signed CA and a server certificate for {@code 127.0.0.1} and {@code localhost} signed by it.
 * Clients trust the CA and verify the server's name, as they would against a managed Redis.
 */
final class TlsCertificates {

    private static final long OPENSSL_TIMEOUT_SECONDS = 30;
    // Generated at start and gone with the temp directory; a day outlives any test run.
    private static final String VALIDITY_DAYS = "1";
    private static final String SERVER_EXTENSIONS = String.join(
            "\n",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "basicConstraints=critical,CA:FALSE",
            "keyUsage=critical,digitalSignature,keyEncipherment",
            "extendedKeyUsage=serverAuth",
            "");

    private final Path dir;

    private TlsCertificates(Path dir) {
        this.dir = dir;
    }

    /** The certificate files of a server whose temp directory is {@code dir}; {@link #generate()} writes them. */
    static TlsCertificates in(Path dir) {
        return new TlsCertificates(dir);
    }

    /** The CA certificate (PEM) that clients trust. */
    Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    private Path caKey() {
        return dir.resolve("ca.key");
    }

    private Path serverCertificate() {
        return dir.resolve("server.crt");
    }

    private Path serverKey() {
        return dir.resolve("server.key");
    }

    /** Runs {@code openssl} to write the CA and the server certificate; fails with openssl's output if it fails. */
    TlsCertificates generate() throws IOException {
        Path openssl = Executables.require("openssl", "TLS Redis servers", "openssl");
        run(
                openssl,
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                caKey().toString(),
                "-out",
                caCertificate().toString(),
                "-days",
                VALIDITY_DAYS,
                "-subj",
                "/CN=redis-harness test CA",
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign,cRLSign");
        Path request = dir.resolve("server.csr");
        run(
                openssl,
                "req",
                "-new",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                serverKey().toString(),
                "-out",
                request.toString(),
                "-subj",
                "/CN=localhost");
        Path extensions = dir.resolve("server.ext");
        Files.writeString(extensions, SERVER_EXTENSIONS, StandardCharsets.US_ASCII);
        // A random serial instead of -CAcreateserial, which would leave a serial file behind.
        String serial = "0x" + Long.toHexString(new SecureRandom().nextLong() & Long.MAX_VALUE);
        run(
                openssl,
                "x509",
                "-req",
                "-in",
                request.toString(),
                "-CA",
                caCertificate().toString(),
                "-CAkey",
                caKey().toString(),
                "-set_serial",
                serial,
                "-days",
                VALIDITY_DAYS,
                "-extfile",
                extensions.toString(),
                "-out",
                serverCertificate().toString());
        return this;
    }

    private void run(Path openssl, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(openssl.toString());
        command.addAll(List.of(args));
        Path output = dir.resolve("openssl.log");
        ChildProcesses.runToSuccess(
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(Redirect.appendTo(output.toFile())),
                output,
                OPENSSL_TIMEOUT_SECONDS);
    }

    /**
     * Options that make a server on {@code port} accept TLS only, server-authenticated like most managed Redis. They
     * follow the harness's {@code --port}, so {@code --port 0} closes the plain-text port.
     */
    List<String> serverArguments(int port) {
        return List.of(
                "--port",
                "0",
                "--tls-port",
                Integer.toString(port),
                "--tls-cert-file",
                serverCertificate().toString(),
                "--tls-key-file",
                serverKey().toString(),
                "--tls-ca-cert-file",
                caCertificate().toString(),
                "--tls-auth-clients",
                "no");
    }

    /** Lettuce options that trust only this CA; with peer verification on, the host name is checked as well. */
    SslOptions sslOptions() {
        return SslOptions.builder()
                .jdkSslProvider()
                .trustManager(trustManagerFactory())
                .build();
    }

    /** An {@link SSLContext} that trusts only this CA, for the harness's raw sockets (e.g. MONITOR). */
    SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagerFactory().getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not create an SSL context trusting " + caCertificate(), e);
        }
    }

    private TrustManagerFactory trustManagerFactory() {
        try (InputStream pem = Files.newInputStream(caCertificate())) {
            Certificate ca = CertificateFactory.getInstance("X.509").generateCertificate(pem);
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            trusted.setCertificateEntry("redis-harness-ca", ca);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            return factory;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the CA certificate " + caCertificate(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not load the CA certificate " + caCertificate(), e);
        }
    }
}
