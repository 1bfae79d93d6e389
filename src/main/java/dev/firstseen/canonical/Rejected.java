package dev.firstseen.canonical;

import dev.firstseen.record.DeadLetterReason;

/**
 * Thrown inside the rule chain when an input cannot be canonicalized. Bad input is a normal event
 * in a crawler stream, so the exception carries no stack trace: it is a control-flow signal that
 * {@link Canonicalizer} turns into a {@link Canonicalization#rejected} result.
 */
final class Rejected extends Exception {
    private static final long serialVersionUID = 1L;

    final DeadLetterReason reason;

    Rejected(DeadLetterReason reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }
}
