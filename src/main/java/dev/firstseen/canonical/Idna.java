package dev.firstseen.canonical;

import com.ibm.icu.text.IDNA;
import com.ibm.icu.util.ICUInputTooLongException;
import dev.firstseen.record.DeadLetterReason;
import java.util.EnumSet;
import java.util.Set;

/**
 * Domain to ASCII as the WHATWG URL Standard defines it: UTS #46 with CheckBidi and CheckJoiners
 * on, non-transitional processing (so {@code faß.example} stays {@code xn--fa-hia.example} instead
 * of merging with {@code fass.example}), and CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength
 * off (length limits are checked separately, with their own reason code). Also validates existing
 * {@code xn--} labels.
 */
final class Idna {
    private Idna() {}

    private static final IDNA UTS46 =
            IDNA.getUTS46Instance(
                    IDNA.CHECK_BIDI | IDNA.CHECK_CONTEXTJ | IDNA.NONTRANSITIONAL_TO_ASCII);

    /** Errors UTS #46 reports that the URL Standard's flags turn off. */
    private static final Set<IDNA.Error> IGNORED =
            EnumSet.of(
                    IDNA.Error.HYPHEN_3_4,
                    IDNA.Error.LEADING_HYPHEN,
                    IDNA.Error.TRAILING_HYPHEN,
                    IDNA.Error.EMPTY_LABEL,
                    IDNA.Error.LABEL_TOO_LONG,
                    IDNA.Error.DOMAIN_NAME_TOO_LONG);

    static String toAscii(String host) throws Rejected {
        IDNA.Info info = new IDNA.Info();
        StringBuilder out;
        try {
            out = UTS46.nameToASCII(host, new StringBuilder(host.length() + 8), info);
        } catch (ICUInputTooLongException e) {
            // Punycode refuses labels of more than 1,000 code points before any length check of
            // ours could run; such a host is far over 253 characters anyway.
            throw new Rejected(
                    DeadLetterReason.HOST_TOO_LONG,
                    "a host label is too long for IDNA (" + host.length() + " characters of host)");
        } catch (RuntimeException e) {
            throw new Rejected(
                    DeadLetterReason.BAD_HOST,
                    "IDNA conversion failed: " + e.getClass().getSimpleName());
        }
        for (IDNA.Error e : info.getErrors()) {
            if (!IGNORED.contains(e)) {
                throw new Rejected(DeadLetterReason.BAD_HOST, "IDNA conversion failed: " + e);
            }
        }
        return out.toString();
    }
}
