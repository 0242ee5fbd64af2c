package dev.idempotency.internal.operation;

/**
 * {@link java.math.BigDecimal#toString()} of a JSON number's text, digit by digit, without making the BigDecimal: the
 * number's unscaled digits (leading zeros dropped) and its scale (digits after the point, less the exponent), laid out
 * in plain notation when the scale is not negative and the adjusted exponent is at least -6, else in E-notation.
 */
final class JsonDecimal {

    /** An exponent with more digits than this (or a scale past a billion) goes through Jackson's own BigDecimal. */
    private static final int FAST_EXPONENT_DIGITS = 9;

    private static final long FAST_SCALE = 1_000_000_000L;

    private JsonDecimal() {}

    /** Writes the number; false, writing nothing, when its exponent is too large to lay out here. */
    static boolean layout(JsonText out, char[] text, int offset, int count) {
        int end = offset + count;
        int i = offset;
        boolean negative = text[i] == '-';
        if (negative) {
            i++;
        }
        int digitsFrom = i;
        while (i < end && text[i] >= '0' && text[i] <= '9') {
            i++;
        }
        int integerEnd = i;
        int fractionFrom = i;
        int fractionEnd = i;
        if (i < end && text[i] == '.') {
            fractionFrom = ++i;
            while (i < end && text[i] >= '0' && text[i] <= '9') {
                i++;
            }
            fractionEnd = i;
        }
        long exponent = 0;
        if (i < end) { // e or E, then an optional sign and digits
            i++;
            boolean negativeExponent = text[i] == '-';
            if (text[i] == '-' || text[i] == '+') {
                i++;
            }
            if (end - i > FAST_EXPONENT_DIGITS) {
                return false;
            }
            for (; i < end; i++) {
                exponent = exponent * 10 + (text[i] - '0');
            }
            exponent = negativeExponent ? -exponent : exponent;
        }
        long scale = (fractionEnd - fractionFrom) - exponent;
        if (Math.abs(scale) > FAST_SCALE) {
            return false;
        }
        // The unscaled value's digits, without leading zeros ("0" for zero), in the writer's scratch chars.
        char[] digits = out.scratch(integerEnd - digitsFrom + fractionEnd - fractionFrom + 1);
        int significant = 0;
        for (int k = digitsFrom; k < fractionEnd; k++) {
            if (k != integerEnd && (significant > 0 || text[k] != '0')) {
                digits[significant++] = text[k];
            }
        }
        if (significant == 0) {
            digits[significant++] = '0';
        } else if (negative) {
            out.put('-');
        }
        write(out, digits, significant, (int) scale);
        return true;
    }

    /** BigDecimal.toString's layout of {@code count} digits at {@code scale}. */
    private static void write(JsonText out, char[] digits, int count, int scale) {
        long adjusted = -(long) scale + (count - 1);
        if (scale == 0) {
            out.ascii(digits, 0, count);
        } else if (scale > 0 && adjusted >= -6) {
            int pad = scale - count;
            if (pad >= 0) {
                out.put('0');
                out.put('.');
                for (; pad > 0; pad--) {
                    out.put('0');
                }
                out.ascii(digits, 0, count);
            } else {
                out.ascii(digits, 0, -pad);
                out.put('.');
                out.ascii(digits, -pad, scale);
            }
        } else {
            out.put(digits[0]);
            if (count > 1) {
                out.put('.');
                out.ascii(digits, 1, count - 1);
            }
            if (adjusted != 0) {
                out.put('E');
                if (adjusted > 0) {
                    out.put('+');
                }
                out.digits(adjusted);
            }
        }
    }
}
