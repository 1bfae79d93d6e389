package dev.firstseen.record.internal;

import dev.firstseen.record.CanonicalUrl;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information for {@link CanonicalUrl}, written by {@link CanonicalUrlSerializer}
 * between the canonicalize and dedup stages.
 */
public final class CanonicalUrlTypeInfo extends OpaqueTypeInfo<CanonicalUrl> {
    private static final long serialVersionUID = 1L;

    public static final CanonicalUrlTypeInfo INSTANCE = new CanonicalUrlTypeInfo();

    @Override
    public Class<CanonicalUrl> getTypeClass() {
        return CanonicalUrl.class;
    }

    @Override
    public TypeSerializer<CanonicalUrl> createSerializer(SerializerConfig config) {
        return new CanonicalUrlSerializer();
    }

    /** The factory {@code @TypeInfo} names. */
    public static final class Factory extends TypeInfoFactory<CanonicalUrl> {
        @Override
        public TypeInformation<CanonicalUrl> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return INSTANCE;
        }
    }
}
