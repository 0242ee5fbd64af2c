package dev.idempotency.internal.operation;

import org.springframework.core.annotation.AnnotatedElementUtils;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * Which results a duplicate can get back. A stored result is decoded to the method's declared type, so that type must
 * say what to build: {@code Object}, or an abstract type without Jackson type information, cannot be replayed.
 */
final class ResultTypes {

    private ResultTypes() {}

    static void requireDecodable(JavaType type) {
        Class<?> raw = type.getRawClass();
        if (raw == Object.class) {
            throw new IllegalArgumentException(
                    "REQUEST_ID stores the result for duplicates, but a result declared as Object cannot be decoded;"
                            + " declare the concrete type");
        }
        boolean abstractType = type.isAbstract() && !type.isContainerType() && !type.isPrimitive();
        if (abstractType && !hasTypeInformation(raw)) {
            throw new IllegalArgumentException("REQUEST_ID stores the result for duplicates, but " + raw.getName()
                    + " is abstract and carries no Jackson type information (@JsonTypeInfo or @JsonDeserialize(as ="
                    + " ...)); declare a concrete type or add one");
        }
    }

    private static boolean hasTypeInformation(Class<?> type) {
        return AnnotatedElementUtils.hasAnnotation(type, com.fasterxml.jackson.annotation.JsonTypeInfo.class)
                || AnnotatedElementUtils.hasAnnotation(type, JsonDeserialize.class);
    }
}
