package dev.idempotency.aot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.http.ResponseEntity;

class IdempotentMethodsAotProcessorTests {

    /** The argument of a protected method, read by its SpEL key. */
    record Transfer(String id, long cents) {}

    /** The result of a protected method, stored as JSON and read back for duplicates. */
    record Receipt(String id, String status) {}

    static class Payments {

        @Idempotent(key = "#transfer.id")
        public Receipt transfer(Transfer transfer) {
            return new Receipt(transfer.id(), "DONE");
        }

        @Idempotent(strategy = Strategy.LOCK, key = "#sku")
        public ResponseEntity<Receipt> reserve(String sku) {
            return ResponseEntity.ok(new Receipt(sku, "HELD"));
        }

        public Receipt unprotected(Transfer transfer) {
            return new Receipt(transfer.id(), "NONE");
        }
    }

    static class Plain {

        public String hello() {
            return "hello";
        }
    }

    private final IdempotentMethodsAotProcessor processor = new IdempotentMethodsAotProcessor();

    @Test
    void protectedMethodsTheirArgumentsAndResultsGetHints() throws Exception {
        RuntimeHints hints = process(Payments.class);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Payments.class, "transfer"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Payments.class, "reserve"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Payments.class, "unprotected"))
                .rejects(hints);
        // SpEL reads transfer.id; fingerprints and stored results go through Jackson.
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Transfer.class, "id"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Receipt.class, "status"))
                .accepts(hints);
        // A ResponseEntity is unwrapped to its body, as Spring's own controller hints do.
        assertThat(RuntimeHintsPredicates.reflection().onType(ResponseEntity.class))
                .rejects(hints);
    }

    @Test
    void beansWithoutIdempotentMethodsContributeNothing() {
        assertThat(processor.processAheadOfTime(registered(Plain.class))).isNull();
    }

    private RuntimeHints process(Class<?> beanClass) {
        BeanRegistrationAotContribution contribution = processor.processAheadOfTime(registered(beanClass));
        assertThat(contribution).isNotNull();
        GenerationContext generation = new DefaultGenerationContext(
                new org.springframework.aot.generate.ClassNameGenerator(
                        org.springframework.javapoet.ClassName.get(getClass())),
                new InMemoryGeneratedFiles());
        contribution.applyTo(generation, mock(BeanRegistrationCode.class));
        return generation.getRuntimeHints();
    }

    private static RegisteredBean registered(Class<?> beanClass) {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
        return RegisteredBean.of(beanFactory, "bean");
    }
}
