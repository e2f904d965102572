package dev.nccltriage.report;

import dev.nccltriage.evidence.Printable;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The report with every string made {@link Printable}, for the forms a terminal shows (text,
 * markdown). Log lines, host names and file contents reach nearly every field through rule
 * templates, so the whole document is copied rather than the fields someone remembered; JSON
 * needs none of this (its encoder escapes control characters). Records are rebuilt through their
 * canonical constructors, lists, sets and maps copied in order; anything else is kept as it is.
 */
final class PrintableReport {
  private PrintableReport() {}

  static Report of(Report r) {
    return (Report) copy(r);
  }

  private static Object copy(Object o) {
    if (o instanceof String s) {
      return Printable.text(s);
    }
    if (o instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(copy(x)));
      return out;
    }
    if (o instanceof Set<?> set) {
      Set<Object> out = new LinkedHashSet<>();
      set.forEach(x -> out.add(copy(x)));
      return out;
    }
    if (o instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(copy(k), copy(v)));
      return out;
    }
    if (o instanceof Record rec) {
      return copyRecord(rec);
    }
    return o;
  }

  private static Object copyRecord(Record rec) {
    RecordComponent[] cs = rec.getClass().getRecordComponents();
    Class<?>[] types = new Class<?>[cs.length];
    Object[] args = new Object[cs.length];
    try {
      for (int i = 0; i < cs.length; i++) {
        types[i] = cs[i].getType();
        cs[i].getAccessor().setAccessible(true);
        Object v = cs[i].getAccessor().invoke(rec);
        Object c = copy(v);
        // a field typed as one class of collection (a TreeMap, say) keeps its value
        args[i] = c == null || types[i].isPrimitive() || types[i].isInstance(c) ? c : v;
      }
      Constructor<?> ctor = rec.getClass().getDeclaredConstructor(types);
      ctor.setAccessible(true);
      return ctor.newInstance(args);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return rec; // a record that refuses its own copy; PrintableReportTest renders every field to catch one
    }
  }
}
