package dev.idempotency.web.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.internal.http.HeldBytes;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;

/** What a response holds back, within its own limit and within the bound shared by all calls in flight. */
class CapturingResponseTests {

    @Test
    void aResponseThatFindsTheSharedBoundReachedGoesOutAsWrittenAndIsNotStored() throws IOException {
        HeldBytes budget = new HeldBytes(1000);
        MockHttpServletResponse firstClient = new MockHttpServletResponse();
        MockHttpServletResponse secondClient = new MockHttpServletResponse();
        CapturingResponse first = new CapturingResponse(firstClient, budget);
        CapturingResponse second = new CapturingResponse(secondClient, budget);
        first.arm(800);
        second.arm(800);

        first.getOutputStream().write(new byte[600]);
        second.getOutputStream().write(new byte[600]);

        assertThat(first.copied().toByteArray()).hasSize(600);
        assertThat(firstClient.getContentAsByteArray())
                .as("held back until settled")
                .isEmpty();
        assertThat(second.copied()).as("past the shared bound: not stored").isNull();
        assertThat(secondClient.getContentAsByteArray()).as("sent as written").hasSize(600);
        assertThat(budget.held()).isEqualTo(600);

        first.release();
        assertThat(firstClient.getContentAsByteArray()).hasSize(600);
        assertThat(budget.held()).as("given back once sent").isZero();
    }

    @Test
    void whatAResponseHeldIsGivenBackWhenItIsResetOrEndsUnreleased() throws IOException {
        HeldBytes budget = new HeldBytes(1000);
        CapturingResponse response = new CapturingResponse(new MockHttpServletResponse(), budget);
        response.arm(800);
        response.getOutputStream().write(new byte[300]);
        response.resetBuffer();
        assertThat(budget.held()).isZero();
        response.getOutputStream().write(new byte[200]);
        response.giveBack();
        assertThat(budget.held()).isZero();
    }
}
