package dev.idempotency.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Each bean method is its own operation: per target class, per overload; shared only when named alike on purpose. */
class OperationIdentityTests extends ShopTest {

    @Autowired
    IdentityBeans.EmailHandler email;

    @Autowired
    IdentityBeans.SmsHandler sms;

    @Autowired
    IdentityBeans.Charges charges;

    @Autowired
    dev.idempotency.it.a.Notifier notifierA;

    @Autowired
    dev.idempotency.it.b.Notifier notifierB;

    @Test
    void twoBeansInheritingOneAnnotatedMethodEachRunTheirOwnWork() {
        String id = newKey();
        assertThat(email.handle(id)).isEqualTo("EmailHandler-1");
        assertThat(sms.handle(id)).as("not the email handler's replay").isEqualTo("SmsHandler-1");
        assertThat(email.handle(id)).as("its own replay").isEqualTo("EmailHandler-1");
    }

    @Test
    void twoClassesWithTheSameSimpleNameInOtherPackagesEachRunTheirOwnWork() {
        String id = newKey();
        assertThat(notifierA.send(id)).startsWith("a-");
        assertThat(notifierB.send(id)).startsWith("b-");
        assertThat(notifierA.send(id)).isEqualTo(notifierA.send(id));
    }

    @Test
    void overloadsAreSeparateOperationsAndNamedOperationsShareRecords() {
        String id = newKey();
        String one = charges.charge(id);
        String two = charges.charge(id, 5);
        assertThat(two).startsWith("charge-5-");
        assertThat(charges.charge(id)).isEqualTo(one);
        String again = charges.chargeAgain(id);
        assertThat(charges.chargeShared(id))
                .as("operation = \"charges\" on both")
                .isEqualTo(again);
    }
}
