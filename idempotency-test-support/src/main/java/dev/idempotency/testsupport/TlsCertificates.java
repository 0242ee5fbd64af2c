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
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away certificate chain for one TLS server, made with the JDK's {@code keytool} in the server's temp
 * directory (so a JDK is all it needs): a self-signed CA and a server certificate for {@code 127.0.0.1} and {@code localhost} signed by it.
 * Clients trust the CA and verify the server's name, as they would against a managed Redis.
 */
final class TlsCertificates {

    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;
    // Generated at start and gone with the temp directory; a day outlives any test run.
    private static final String VALIDITY_DAYS = "1";
    // Guards stores that live a few seconds in a private temp directory.
    private static final String STORE_PASSWORD = "redis-harness";

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

    private Path serverCertificate() {
        return dir.resolve("server.crt");
    }

    private Path serverKey() {
        return dir.resolve("server.key");
    }

    /**
     * Runs the JDK's {@code keytool} to make the CA and the server certificate, and writes them, and the server's
     * private key, as PEM files for Redis; fails with keytool's output if it fails.
     */
    TlsCertificates generate() throws IOException {
        Path ca = dir.resolve("ca.p12");
        Path server = dir.resolve("server.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "ca",
                "-keystore",
                ca,
                "-dname",
                "CN=redis-harness test CA",
                "-ext",
                "bc:c=ca:true",
                "-ext",
                "ku:c=keyCertSign,cRLSign");
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca, "-file", caCertificate());
        keytool("-genkeypair", "-alias", "server", "-keystore", server, "-dname", "CN=localhost");
        Path request = dir.resolve("server.csr");
        keytool("-certreq", "-alias", "server", "-keystore", server, "-file", request);
        keytool(
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                ca,
                "-infile",
                request,
                "-outfile",
                serverCertificate(),
                "-validity",
                VALIDITY_DAYS,
                "-ext",
                "san=ip:127.0.0.1,dns:localhost",
                "-ext",
                "bc:c=ca:false",
                "-ext",
                "ku:c=digitalSignature,keyEncipherment",
                "-ext",
                "eku=serverAuth");
        writePrivateKey(server, "server", serverKey());
        return this;
    }

    /** Runs {@code keytool} with the options every command here shares: PKCS12 stores, RSA 2048, a day's validity. */
    private void keytool(Object... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-noprompt"));
        for (Object arg : args) {
            command.add(arg.toString());
        }
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", STORE_PASSWORD));
        if (args[0].equals("-genkeypair")) {
            command.addAll(List.of("-keyalg", "RSA", "-keysize", "2048", "-validity", VALIDITY_DAYS));
        }
        Path output = dir.resolve("keytool.log");
        ChildProcesses.runToSuccess(
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(Redirect.appendTo(output.toFile())),
                output,
                KEYTOOL_TIMEOUT_SECONDS);
    }

    /** keytool exports no private key, so the key is read from the store and written as PKCS#8 PEM. */
    private static void writePrivateKey(Path store, String alias, Path pem) throws IOException {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, STORE_PASSWORD.toCharArray());
            Key key = keys.getKey(alias, STORE_PASSWORD.toCharArray());
            String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(key.getEncoded());
            Files.writeString(
                    pem,
                    "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----\n",
                    StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not read the private key of " + store, e);
        }
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
