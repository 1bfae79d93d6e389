package dev.firstseen.record.internal;

import dev.firstseen.record.DeadLetter;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information for {@link DeadLetter}, written by {@link DeadLetterTypeSerializer} from
 * the decode and canonicalize stages to the dead-letter sink.
 */
public final class DeadLetterTypeInfo extends OpaqueTypeInfo<DeadLetter> {
    private static final long serialVersionUID = 1L;

    public static final DeadLetterTypeInfo INSTANCE = new DeadLetterTypeInfo();

    @Override
    public Class<DeadLetter> getTypeClass() {
        return DeadLetter.class;
    }

    @Override
    public TypeSerializer<DeadLetter> createSerializer(SerializerConfig config) {
        return new DeadLetterTypeSerializer();
    }

    /** The factory {@code @TypeInfo} names. */
    public static final class Factory extends TypeInfoFactory<DeadLetter> {
        @Override
        public TypeInformation<DeadLetter> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return INSTANCE;
        }
    }
}
