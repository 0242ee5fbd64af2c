package dev.idempotency.reliability.promise;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The protected bean methods called inside a transaction their caller began ({@code bean-tx}, on the JDBC record
 * store): the claim's completion is written in that transaction and commits with it; a failure rolls it back.
 */
@RestController
public class TransactionalPaths {

    private final BeanWork bean;
    private final TransactionTemplate transactions;

    public TransactionalPaths(BeanWork bean, TransactionTemplate transactions) {
        this.bean = bean;
        this.transactions = transactions;
    }

    @PostMapping("/p/bean-tx/request-id")
    public ResponseEntity<String> requestId(@RequestBody Job job, HttpServletRequest request) {
        String key = ServletPaths.key(request);
        return ResponseEntity.ok(BeanWork.onBehalfOf(
                ServletPaths.call(request), () -> transactions.execute(status -> bean.requestId(key, job))));
    }

    @PostMapping("/p/bean-tx/lock/{key}")
    public ResponseEntity<String> lock(@PathVariable String key, @RequestBody Job job, HttpServletRequest request) {
        return ResponseEntity.ok(BeanWork.onBehalfOf(
                ServletPaths.call(request), () -> transactions.execute(status -> bean.lock(key, job))));
    }
}
