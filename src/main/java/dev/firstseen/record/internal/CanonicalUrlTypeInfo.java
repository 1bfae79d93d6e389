package dev.firstseen.record.internal;

import dev.firstseen.record.CanonicalUrl;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information for {@link CanonicalUrl}: an opaque type written by {@link
 * CanonicalUrlSerializer}. {@code @TypeInfo} on the class makes {@code TypeInformation.of} and type
 * extraction pick it up wherever the type appears.
 */
public final class CanonicalUrlTypeInfo extends TypeInformation<CanonicalUrl> {
    private static final long serialVersionUID = 1L;

    public static final CanonicalUrlTypeInfo INSTANCE = new CanonicalUrlTypeInfo();

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<CanonicalUrl> getTypeClass() {
        return CanonicalUrl.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<CanonicalUrl> createSerializer(SerializerConfig config) {
        return new CanonicalUrlSerializer();
    }

    @Override
    public String toString() {
        return "CanonicalUrl";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CanonicalUrlTypeInfo;
    }

    @Override
    public int hashCode() {
        return CanonicalUrlTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof CanonicalUrlTypeInfo;
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
