package dev.firstseen.record.internal;

import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Flink type information for a record type FirstSeen writes with its own serializer: one opaque
 * field, never a key. {@code @TypeInfo} on the record class makes {@code TypeInformation.of} and
 * type extraction pick the subclass up wherever the type appears.
 */
abstract class OpaqueTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

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
    public boolean isKeyType() {
        return false;
    }

    @Override
    public String toString() {
        return getTypeClass().getSimpleName();
    }

    @Override
    public boolean equals(Object o) {
        return canEqual(o);
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o != null && o.getClass() == getClass();
    }
}
