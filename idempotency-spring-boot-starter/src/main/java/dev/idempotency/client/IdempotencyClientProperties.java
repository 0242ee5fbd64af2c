package dev.idempotency.client;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.http.HttpMethod;
import org.springframework.util.StringUtils;

/**
 * The client half, under {@code idempotency.client.*}: which calls get an idempotency key and how often they are
 * retried. Checked once bound: a bad value fails startup with a message naming the property.
 */
@ConfigurationProperties("idempotency.client")
public class IdempotencyClientProperties implements InitializingBean {

    /** Whether calls made with Boot's RestClient.Builder and WebClient.Builder get keys and retries. */
    private boolean enabled = false;

    /** HTTP header that carries the idempotency key. */
    private String header = "Idempotency-Key";

    /** HTTP methods that get a key and are retried; other methods pass through untouched. */
    private Set<HttpMethod> methods = new LinkedHashSet<>(List.of(HttpMethod.POST, HttpMethod.PATCH));

    /**
     * Hosts whose calls get a key and are retried: names (orders.internal) or every subdomain of one (*.payments.svc).
     * Only these: an API elsewhere that ignores the key would run a retried call twice.
     */
    private Set<String> hosts = new LinkedHashSet<>();

    /** Whether calls to other hosts still get a key (never a retry), for servers that log or honour it. */
    private boolean keyOtherHosts = false;

    /** Most attempts of one call, the first included; 1 sends a key but never retries. */
    private int maxAttempts = 3;

    /** Wait before the second attempt when the server gives no Retry-After; doubled for each later attempt. */
    private Duration backoff = Duration.ofMillis(200);

    /** Longest wait between two attempts, for the backoff and for a server's Retry-After alike. */
    private Duration maxBackoff = Duration.ofSeconds(5);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getHeader() {
        return header;
    }

    public void setHeader(String header) {
        this.header = header;
    }

    public Set<HttpMethod> getMethods() {
        return methods;
    }

    /** Upper-cases the names: HTTP methods are case-sensitive, and {@code post} in a YAML list means POST. */
    public void setMethods(Set<HttpMethod> methods) {
        this.methods = methods.stream()
                .map(method -> HttpMethod.valueOf(method.name().toUpperCase(Locale.ROOT)))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    public Set<String> getHosts() {
        return hosts;
    }

    /** Lower-cases the names: host names are case-insensitive. */
    public void setHosts(Set<String> hosts) {
        this.hosts = hosts.stream()
                .map(host -> host.trim().toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    public boolean isKeyOtherHosts() {
        return keyOtherHosts;
    }

    public void setKeyOtherHosts(boolean keyOtherHosts) {
        this.keyOtherHosts = keyOtherHosts;
    }

    public int getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public Duration getBackoff() {
        return backoff;
    }

    public void setBackoff(Duration backoff) {
        this.backoff = backoff;
    }

    public Duration getMaxBackoff() {
        return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
        this.maxBackoff = maxBackoff;
    }

    @Override
    public void afterPropertiesSet() {
        if (!StringUtils.hasText(header)) {
            throw invalid("header", header, "must not be empty");
        }
        for (String host : hosts) {
            if (!HostPattern.isValid(host)) {
                throw invalid("hosts", host, "must be a host name, or *. and a domain (no scheme, port or path)");
            }
        }
        if (maxAttempts < 1) {
            throw invalid("max-attempts", maxAttempts, "must be 1 or more");
        }
        if (backoff.isZero() || backoff.isNegative()) {
            throw invalid("backoff", backoff, "must be positive");
        }
        if (maxBackoff.isZero() || maxBackoff.isNegative()) {
            throw invalid("max-backoff", maxBackoff, "must be positive");
        }
    }

    private static InvalidConfigurationPropertyValueException invalid(String name, Object value, String reason) {
        return new InvalidConfigurationPropertyValueException("idempotency.client." + name, value, reason);
    }
}
