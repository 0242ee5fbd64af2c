package dev.idempotency.aot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.Idempotent;
import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.autoconfigure.IdempotencyProperties;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;

/**
 * The AOT engine run over an application with the starter, as {@code process-aot} does: the starter's hints are
 * picked up from {@code aot.factories}, and Spring Boot covers the properties, nested policies included.
 */
class AotProcessingTests {

    /** The argument of the protected method. */
    record Invoice(String number) {}

    static class Billing {

        @Idempotent(key = "#invoice.number")
        public String bill(Invoice invoice) {
            return invoice.number();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataRedisAutoConfiguration.class, IdempotencyAutoConfiguration.class})
    static class Application {

        @Bean
        Billing billing() {
            return new Billing();
        }
    }

    @Test
    void processingTheApplicationRegistersEveryHintTheStarterNeeds() {
        RuntimeHints hints = process();
        assertThat(RuntimeHintsPredicates.reflection().onType(Idempotent.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Billing.class, "bill"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Invoice.class, "number"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(IdempotencyProperties.class, "setKeyPrefix"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(IdempotencyProperties.Policy.class, "setTtl"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                        .onMethodInvocation(IdempotencyProperties.RequestId.class, "setHeader"))
                .accepts(hints);
    }

    private static RuntimeHints process() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.register(Application.class);
            DefaultGenerationContext generation = new DefaultGenerationContext(
                    new ClassNameGenerator(ClassName.get(Application.class)), new InMemoryGeneratedFiles());
            new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
            return generation.getRuntimeHints();
        }
    }
}
