package dev.idempotency.kafka;

import dev.idempotency.Idempotent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.SendTo;

/** A request-reply listener: each quote it computes is numbered, so a replayed reply is told apart from a new one. */
class QuoteListeners {

    private final Executions executions = new Executions();
    private final List<String> replies = new CopyOnWriteArrayList<>();
    private final AtomicInteger quoteNumbers = new AtomicInteger();

    @KafkaListener(id = "quotes", topics = "quotes")
    @SendTo("quote-replies")
    @Idempotent
    public String quote(String request) {
        executions.increment(request);
        return "quote #" + quoteNumbers.incrementAndGet() + " for " + request;
    }

    @KafkaListener(id = "quote-replies", topics = "quote-replies")
    public void reply(String reply) {
        replies.add(reply);
    }

    public Executions executions() {
        return executions;
    }

    public List<String> repliesFor(String request) {
        return replies.stream()
                .filter(reply -> reply.endsWith(" for " + request))
                .toList();
    }
}
