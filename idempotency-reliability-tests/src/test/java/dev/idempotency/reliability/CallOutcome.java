package dev.idempotency.reliability;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.LockBusyException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.TokenAlreadyUsedException;
import java.util.function.Supplier;

/** How a call through the programmatic API ended, as the scenarios count it: its HTTP answer, in short. */
final class CallOutcome {

    private CallOutcome() {}

    /** "ok", "503", "409 in progress", "409 busy", "409 used", "400 token invalid" or "unexpected ...". */
    static String of(Supplier<?> call) {
        try {
            call.get();
            return "ok";
        } catch (IdempotencyStoreUnavailableException ex) {
            return "503";
        } catch (RequestInProgressException ex) {
            return "409 in progress";
        } catch (LockBusyException ex) {
            return "409 busy";
        } catch (TokenAlreadyUsedException ex) {
            return "409 used";
        } catch (InvalidTokenException ex) {
            return "400 token invalid";
        } catch (RuntimeException ex) {
            return "unexpected " + ex;
        }
    }
}
