package dev.nccltriage.report;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a document made of records, lists, maps with string keys, strings, booleans, integers,
 * longs, doubles and null onto Jackson's streaming generator, exactly as databind's
 * {@code ObjectMapper} writes it with fields visible and getters not (a record's components in
 * order, nulls kept). Databind finds the same serializers by introspection on every run: about
 * 100 ms of CPU in a cold JVM (its class initialisation alone builds a calendar), and 20-30 ms
 * on the main thread at the end of a run for the types only known at run time; this walks the
 * record's components, known by the class file. A type outside that closed set is an error, never
 * a guess: {@code RecordJsonTest} checks that every type a report can hold is in it.
 */
final class RecordJson {
  /** Each record class's component fields, in component order, made readable once. */
  private final Map<Class<?>, Field[]> fields = new ConcurrentHashMap<>();

  void write(Object value, JsonGenerator g) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof String s) {
      g.writeString(s);
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Integer i) {
      g.writeNumber(i);
    } else if (value instanceof Long l) {
      g.writeNumber(l);
    } else if (value instanceof Double d) {
      g.writeNumber(d);
    } else if (value instanceof Record r) {
      writeRecord(r, g);
    } else if (value instanceof List<?> list) {
      g.writeStartArray(list, list.size());
      for (Object item : list) {
        write(item, g);
      }
      g.writeEndArray();
    } else if (value instanceof Map<?, ?> map) {
      g.writeStartObject(map);
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalArgumentException("a JSON object's key must be a string, not " + e.getKey());
        }
        g.writeFieldName(key);
        write(e.getValue(), g);
      }
      g.writeEndObject();
    } else {
      throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
    }
  }

  private void writeRecord(Record r, JsonGenerator g) throws IOException {
    g.writeStartObject(r);
    for (Field f : fields.computeIfAbsent(r.getClass(), RecordJson::componentFields)) {
      g.writeFieldName(f.getName());
      try {
        write(f.get(r), g);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(f + " not readable", e);
      }
    }
    g.writeEndObject();
  }

  /** A record's private fields are its components: readable, not writable, once made accessible. */
  private static Field[] componentFields(Class<?> c) {
    RecordComponent[] components = c.getRecordComponents();
    Field[] out = new Field[components.length];
    for (int i = 0; i < components.length; i++) {
      try {
        out[i] = c.getDeclaredField(components[i].getName());
      } catch (NoSuchFieldException e) {
        throw new IllegalStateException(c.getName() + " has no field for its component " + components[i].getName(), e);
      }
      out[i].setAccessible(true);
    }
    return out;
  }
}
