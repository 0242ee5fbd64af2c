package dev.idempotency.web.reactive;

import dev.idempotency.Strategy;
import dev.idempotency.internal.operation.OperationCheck;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.util.MimeTypeUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import reactor.core.publisher.Flux;

/**
 * Refuses {@code REQUEST_ID} on WebFlux handlers that stream ({@code text/event-stream}, NDJSON, or
 * {@code Flux<ServerSentEvent>}): a stream cannot be replayed as sent. A {@code Flux} with another media type is stored
 * as the whole response, unless a request negotiates a stream with its {@code Accept} header: that request is refused
 * before the handler runs ({@link #requested}). {@code LOCK} and {@code TOKEN} hold until the stream ends.
 */
final class ReactiveStreams implements OperationCheck {

    private static final List<MediaType> STREAMING = List.of(
            MediaType.TEXT_EVENT_STREAM, MediaType.APPLICATION_NDJSON, MediaType.valueOf("application/stream+json"));

    /**
     * Whether a request that accepts {@code accepted} negotiates a stream: its most preferred media type that is a
     * stream or a whole body ({@code application/json}, a wildcard) is a stream.
     */
    static boolean requested(List<MediaType> accepted) {
        List<MediaType> preferred = new ArrayList<>(accepted);
        MimeTypeUtils.sortBySpecificity(preferred);
        preferred.sort(Comparator.comparingDouble(MediaType::getQualityValue).reversed()); // stable: ties keep order
        for (MediaType type : preferred) {
            if (type.isWildcardType()
                    || type.isWildcardSubtype()
                    || type.isCompatibleWith(MediaType.APPLICATION_JSON)) {
                return false;
            }
            if (STREAMING.stream().anyMatch(type::isCompatibleWith)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void check(Method method, Strategy strategy) {
        if (strategy != Strategy.REQUEST_ID) {
            return;
        }
        ResolvableType returned = ResolvableType.forMethodReturnType(method);
        boolean events = Flux.class.isAssignableFrom(returned.toClass())
                && ServerSentEvent.class.isAssignableFrom(
                        returned.as(Flux.class).getGeneric(0).toClass());
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
        boolean streams = mapping != null
                && Arrays.stream(mapping.produces())
                        .map(MediaType::parseMediaType)
                        .anyMatch(produced -> STREAMING.stream().anyMatch(produced::isCompatibleWith));
        if (events || streams) {
            throw new IllegalArgumentException("REQUEST_ID replays the stored response, but this handler streams ("
                    + (events ? "ServerSentEvent" : String.join(", ", mapping.produces()))
                    + "), which cannot be replayed as sent; use LOCK or TOKEN, or return the whole body");
        }
    }
}
