package dev.nccltriage.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.nccltriage.facts.Expectations;
import dev.nccltriage.host.IoProblems;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Set;

/**
 * Reads a site's expectations file: {@code hcas: 8}, {@code iface: net1}, {@code gdr: true},
 * {@code minMemlock: unlimited}. Unknown keys are an error, so a typo is not silently ignored.
 */
final class ExpectationsFile {
  /** A few lines in practice; a cap so that a wrong path (a log, a device) cannot exhaust memory. */
  private static final int MAX_BYTES = 64 << 10;
  private static final Set<String> KEYS = Set.of("hcas", "iface", "gdr", "minMemlock");

  private ExpectationsFile() {}

  static Expectations read(Path file) {
    JsonNode n;
    try (InputStream in = Files.newInputStream(file)) {
      byte[] b = in.readNBytes(MAX_BYTES + 1);
      if (b.length > MAX_BYTES) {
        throw new NcclTriage.UsageError(file + ": expectations file over " + (MAX_BYTES >> 10) + " KiB; refused");
      }
      n = new ObjectMapper(new YAMLFactory()).readTree(b);
    } catch (JsonProcessingException e) {
      throw new NcclTriage.UsageError(file + ": cannot read expectations: " + firstLine(e.getMessage()));
    } catch (IOException e) {
      throw new NcclTriage.UsageError(file + ": cannot read expectations: " + IoProblems.describe(e));
    }
    if (n == null || !n.isObject()) {
      throw new NcclTriage.UsageError(file + ": expectations must be a mapping (hcas, iface, gdr, minMemlock)");
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!KEYS.contains(k)) {
        throw new NcclTriage.UsageError(file + ": unknown key '" + k + "' (allowed: hcas, iface, gdr, minMemlock)");
      }
    }
    try {
      Integer hcas = n.has("hcas") ? positive(n.get("hcas"), file) : null;
      String iface = n.has("iface") ? n.get("iface").asText() : null;
      Boolean gdr = n.has("gdr") ? bool(n.get("gdr"), file) : null;
      Long mem = n.has("minMemlock") ? Expectations.parseSize(n.get("minMemlock").asText()) : null;
      return new Expectations(hcas, iface, gdr, mem);
    } catch (IllegalArgumentException e) {
      throw new NcclTriage.UsageError(file + ": " + e.getMessage());
    }
  }

  private static Integer positive(JsonNode v, Path file) {
    if (!v.canConvertToInt() || v.asInt() < 1) {
      throw new NcclTriage.UsageError(file + ": hcas must be a positive integer");
    }
    return v.asInt();
  }

  private static Boolean bool(JsonNode v, Path file) {
    if (!v.isBoolean()) {
      throw new NcclTriage.UsageError(file + ": gdr must be true or false");
    }
    return v.asBoolean();
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("");
  }
}
