package dev.idempotency.it;

import dev.idempotency.Idempotent;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Service;

/** A bean method protected outside HTTP: the key comes from SpEL, the replay is deserialized to List<Report>. */
@Service
public class ReportService {

    final AtomicInteger runs = new AtomicInteger();

    public record Report(String id, int run) {}

    @Idempotent(key = "'report-' + #id", ttl = "${shop.report-ttl}")
    public List<Report> generate(String id) {
        int run = runs.incrementAndGet();
        return List.of(new Report(id, run), new Report(id + "-b", run));
    }

    /** Under policy rollout ({@code missing-key: proceed}): a call whose key is null runs unprotected. */
    @Idempotent(key = "#id", policy = "rollout")
    public Report archive(String id) {
        return new Report(String.valueOf(id), runs.incrementAndGet());
    }
}
