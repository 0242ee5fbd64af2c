package dev.idempotency.client;

import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.service.annotation.HttpExchange;
import org.springframework.web.service.annotation.PostExchange;

/** An HTTP interface client of the order server, registered with {@code @ImportHttpServices}. */
@HttpExchange("/orders")
public interface OrdersApi {

    @PostExchange
    ResponseEntity<String> create(@RequestBody Map<String, Object> order);
}
