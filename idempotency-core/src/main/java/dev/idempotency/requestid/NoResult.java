package dev.idempotency.requestid;

/** The codec of {@link ResultCodec#none()}: nothing is encoded, so nothing is ever replayed. */
final class NoResult implements ResultCodec<Object> {

    private static final NoResult INSTANCE = new NoResult();

    private NoResult() {}

    @SuppressWarnings("unchecked")
    static <T> ResultCodec<T> instance() {
        return (ResultCodec<T>) INSTANCE;
    }

    @Override
    public boolean shouldStore(Object result) {
        return false;
    }

    @Override
    public byte[] encode(Object result) {
        throw new UnsupportedOperationException("this codec stores no results");
    }

    @Override
    public Object decode(byte[] stored) {
        throw new UnsupportedOperationException("this codec stores no results");
    }
}
