package dev.idempotency.it;

import dev.idempotency.stacks.ContractApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/** A user's application: the starter, Spring MVC and Spring Security, idempotency configured in application.yml. */
@SpringBootApplication
@Import(ContractApplication.Servlet.class)
public class ShopApplication {}
