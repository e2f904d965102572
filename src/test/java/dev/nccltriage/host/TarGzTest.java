package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TarGzTest {
  @TempDir
  Path tmp;

  private static final String LONG = "a".repeat(45) + "/" + "b".repeat(45) + "/" + "c".repeat(45) + "/"
      + "d".repeat(45) + "/" + "e".repeat(12) + ".txt"; // 200 characters

  private Path tree() throws IOException {
    Path d = tmp.resolve("tree");
    Files.createDirectories(d.resolve("sys/class/infiniband"));
    Files.createDirectories(d.resolve("sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/ports/1"));
    Files.writeString(d.resolve("sys/devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0/ports/1/state"), "4: ACTIVE\n");
    Files.createSymbolicLink(d.resolve("sys/class/infiniband/mlx5_0"),
        Path.of("../../devices/pci0000:17/0000:18:00.0/infiniband/mlx5_0"));
    Files.createDirectories(d.resolve("dev/infiniband"));
    Files.createFile(d.resolve("dev/infiniband/uverbs0"));
    Files.createDirectories(d.resolve("empty/dir"));
    Files.createDirectories(d.resolve(".nccl-triage/commands/ibv_devinfo"));
    Files.writeString(d.resolve(".nccl-triage/commands/ibv_devinfo/stdout"), "hca_id:\tmlx5_0\n");
    byte[] all = new byte[70_000];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) (i * 31);
    }
    Files.write(d.resolve("binary"), all);
    Files.writeString(d.resolve("exactly-512"), "x".repeat(512));
    Path longFile = d.resolve(LONG);
    Files.createDirectories(longFile.getParent());
    Files.writeString(longFile, "long\n");
    assertThat(LONG).hasSize(200);
    return d;
  }

  /** Every path with its kind and content (or link target), for comparing two trees. */
  private static TreeMap<String, String> snapshot(Path root) throws IOException {
    TreeMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String rel = root.relativize(p).toString();
        if (Files.isSymbolicLink(p)) {
          out.put(rel, "link " + Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          out.put(rel, "dir");
        } else {
          out.put(rel, "file " + java.util.HexFormat.of().formatHex(Files.readAllBytes(p)).hashCode() + " "
              + Files.size(p));
        }
      }
    }
    return out;
  }

  @Test
  void roundTripKeepsFilesFoldersLinksAndLongNames() throws IOException {
    Path d = tree();
    Path tgz = tmp.resolve("bundle.tar.gz");
    TarGz.write(d, tgz);
    Path out = tmp.resolve("out");
    TarGz.extract(tgz, out);
    assertThat(snapshot(out)).isEqualTo(snapshot(d));
    assertThat(out.resolve(LONG)).hasContent("long");
    assertThat(out.resolve("sys/class/infiniband/mlx5_0/ports/1/state")).hasContent("4: ACTIVE");
  }

  @Test
  void sameTreeSameBytes() throws IOException {
    Path d = tree();
    Path a = tmp.resolve("a.tgz");
    Path b = tmp.resolve("b.tgz");
    TarGz.write(d, a);
    Files.setLastModifiedTime(d.resolve("binary"), FileTime.fromMillis(123_456_000L));
    TarGz.write(d, b);
    assertThat(Files.readAllBytes(b)).isEqualTo(Files.readAllBytes(a));
    ByteArrayOutputStream s = new ByteArrayOutputStream();
    TarGz.write(d, s);
    assertThat(s.toByteArray()).isEqualTo(Files.readAllBytes(a));
  }

  @Test
  void aBundleInsideTheTreeIsNotArchivedIntoItself() throws IOException {
    Path d = tree();
    Path tgz = d.resolve("bundle.tar.gz");
    TarGz.write(d, tgz);
    Path out = tmp.resolve("out");
    TarGz.extract(tgz, out);
    assertThat(out.resolve("bundle.tar.gz")).doesNotExist();
    Files.delete(tgz);
    assertThat(snapshot(out)).isEqualTo(snapshot(d)); // nor its temporary file
  }

  @Test
  void systemTarReadsWhatWeWriteAndWeReadWhatItWrites() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/tar")) || Files.isExecutable(Path.of("/usr/bin/tar")));
    Path d = tree();
    Path tgz = tmp.resolve("ours.tgz");
    TarGz.write(d, tgz);
    Path viaTar = tmp.resolve("via-tar");
    Files.createDirectories(viaTar);
    assertThat(run(List.of("tar", "-xzf", tgz.toString(), "-C", viaTar.toString()))).isZero();
    assertThat(snapshot(viaTar)).isEqualTo(snapshot(d));

    Path theirs = tmp.resolve("theirs.tgz");
    assertThat(run(List.of("tar", "-czf", theirs.toString(), "-C", d.toString(), "."))).isZero();
    Path back = tmp.resolve("back");
    TarGz.extract(theirs, back);
    assertThat(snapshot(back)).isEqualTo(snapshot(d));
    Path pax = tmp.resolve("pax.tgz");
    if (run(List.of("tar", "--format=pax", "-czf", pax.toString(), "-C", d.toString(), ".")) == 0) {
      Path back2 = tmp.resolve("back2");
      TarGz.extract(pax, back2);
      assertThat(snapshot(back2)).isEqualTo(snapshot(d));
    }
  }

  private static int run(List<String> argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return p.exitValue();
  }

  @Test
  void namesAndLinksBeyondUstarGoThroughPaxRecords() throws Exception {
    Path d = tmp.resolve("d");
    String longName = "x".repeat(120) + "/" + "y".repeat(90) + "/" + "z".repeat(90) + ".txt"; // 305, unsplittable
    Files.createDirectories(d.resolve(longName).getParent());
    Files.writeString(d.resolve(longName), "deep\n");
    String deepTarget = "../../devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0/"
        + "0000:19:00.0/infiniband/mlx5_0"; // 112 bytes, over ustar's 100
    Files.createDirectories(d.resolve("sys/class/infiniband"));
    Files.createSymbolicLink(d.resolve("sys/class/infiniband/mlx5_0"), Path.of(deepTarget));
    Path tgz = tmp.resolve("pax.tgz");
    TarGz.write(d, tgz);
    Path out = tmp.resolve("out");
    TarGz.extract(tgz, out);
    assertThat(snapshot(out)).isEqualTo(snapshot(d));
    assertThat(Files.readSymbolicLink(out.resolve("sys/class/infiniband/mlx5_0")).toString()).isEqualTo(deepTarget);
    if (Files.isExecutable(Path.of("/bin/tar")) || Files.isExecutable(Path.of("/usr/bin/tar"))) {
      Path viaTar = tmp.resolve("via-tar");
      Files.createDirectories(viaTar);
      assertThat(run(List.of("tar", "-xzf", tgz.toString(), "-C", viaTar.toString()))).isZero();
      assertThat(snapshot(viaTar)).isEqualTo(snapshot(d));
    }
  }

  // --- hostile archives -----------------------------------------------------------------------

  private record Entry(String name, char type, String link, byte[] data) {}

  private static Entry file(String name, String content) {
    return new Entry(name, '0', "", content.getBytes(StandardCharsets.UTF_8));
  }

  private static Entry symlink(String name, String target) {
    return new Entry(name, '2', target, new byte[0]);
  }

  private Path archive(Entry... entries) throws IOException {
    Path f = Files.createTempFile(tmp, "hostile", ".tgz");
    try (GZIPOutputStream gz = new GZIPOutputStream(Files.newOutputStream(f))) {
      for (Entry e : entries) {
        byte[] h = rawHeader(e.name(), e.type(), e.data().length, e.link());
        gz.write(h);
        gz.write(e.data());
        gz.write(new byte[(512 - e.data().length % 512) % 512]);
      }
      gz.write(new byte[1024]);
    }
    return f;
  }

  /** A header with any name at all (TarGz.header would refuse some of these). */
  private static byte[] rawHeader(String name, char type, long size, String link) throws IOException {
    byte[] h = TarGz.header("placeholder", type, size, 0644, link);
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    java.util.Arrays.fill(h, 0, 100, (byte) 0);
    System.arraycopy(n, 0, h, 0, n.length);
    java.util.Arrays.fill(h, 148, 156, (byte) ' ');
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    byte[] c = String.format("%06o", sum).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(c, 0, h, 148, 6);
    h[154] = 0;
    return h;
  }

  private Path into() throws IOException {
    Path p = tmp.resolve("x/into");
    Files.createDirectories(p);
    return p;
  }

  @Test
  void refusesDotDot() throws IOException {
    Path a = archive(file("ok", "1"), file("../evil", "pwned"));
    Path into = into();
    assertThatThrownBy(() -> TarGz.extract(a, into)).isInstanceOf(IOException.class)
        .hasMessageContaining("'../evil'").hasMessageContaining("..");
    assertThat(tmp.resolve("x/evil")).doesNotExist();
  }

  @Test
  void aBackslashIsPartOfOneNameInsideTheFolder() throws IOException {
    Path a = archive(file("..\\evil", "x"), file("C:\\evil", "y"));
    Path into = into();
    TarGz.extract(a, into);
    assertThat(into.resolve("..\\evil")).hasContent("x");
    assertThat(into.resolve("C:\\evil")).hasContent("y");
    assertThat(tmp.resolve("x/evil")).doesNotExist();
  }

  @Test
  void refusesNestedDotDot() throws IOException {
    Path a = archive(file("a/b/../../../evil", "pwned"));
    assertThatThrownBy(() -> TarGz.extract(a, into())).hasMessageContaining("a/b/../../../evil");
    assertThat(tmp.resolve("x/evil")).doesNotExist();
  }

  @Test
  void refusesAbsoluteNames() throws IOException {
    Path target = tmp.resolve("abs-evil");
    Path a = archive(file(target.toString(), "pwned"));
    assertThatThrownBy(() -> TarGz.extract(a, into())).isInstanceOf(IOException.class)
        .hasMessageContaining(target.toString()).hasMessageContaining("absolute");
    assertThat(target).doesNotExist();
  }

  @Test
  void refusesSymlinksOutOfTheFolder() throws IOException {
    Path a = archive(symlink("sys/up", "../../../etc"));
    assertThatThrownBy(() -> TarGz.extract(a, into())).isInstanceOf(IOException.class)
        .hasMessageContaining("'sys/up'").hasMessageContaining("outside");
    Path b = archive(symlink("abs", "/etc/passwd"));
    assertThatThrownBy(() -> TarGz.extract(b, into())).hasMessageContaining("'abs'").hasMessageContaining("absolute");
  }

  @Test
  void refusesALinkThatEscapesThroughAnotherLink() throws IOException {
    // lexically "a/a/a/../.." is "a", inside; but a -> "." makes it climb two levels above the root
    Path a = archive(symlink("p", "a/a/a/../.."), symlink("a", "."));
    Path into = into();
    assertThatThrownBy(() -> TarGz.extract(a, into)).isInstanceOf(IOException.class)
        .hasMessageContaining("'p'").hasMessageContaining("outside");
    assertThat(into.resolve("p")).doesNotExist();
  }

  @Test
  void refusesWritingThroughASymlink() throws IOException {
    Path outside = tmp.resolve("outside");
    Files.createDirectories(outside);
    Path into = into();
    Files.createSymbolicLink(into.resolve("out"), outside);
    Path a = archive(file("out/evil", "pwned"));
    assertThatThrownBy(() -> TarGz.extract(a, into)).hasMessageContaining("'out/evil'")
        .hasMessageContaining("symlink");
    assertThat(outside.resolve("evil")).doesNotExist();
    // a link in the archive and a file below it: the file cannot go through the (deferred) link
    Path b = archive(symlink("l", "inner"), file("inner/x", "1"), file("l/y", "2"));
    Path into2 = tmp.resolve("into2");
    assertThatThrownBy(() -> TarGz.extract(b, into2)).hasMessageContaining("'l'");
  }

  @Test
  void refusesHardLinksToOutside() throws IOException {
    Path a = archive(new Entry("h", '1', "../../etc/passwd", new byte[0]));
    assertThatThrownBy(() -> TarGz.extract(a, into())).hasMessageContaining("'h'");
  }

  @Test
  void truncatedOrForeignInputIsAClearError() throws IOException {
    Path d = tree();
    Path tgz = tmp.resolve("t.tgz");
    TarGz.write(d, tgz);
    byte[] all = Files.readAllBytes(tgz);
    Path cut = tmp.resolve("cut.tgz");
    Files.write(cut, java.util.Arrays.copyOf(all, all.length / 2));
    assertThatThrownBy(() -> TarGz.extract(cut, tmp.resolve("c"))).isInstanceOf(IOException.class);
    Path notTar = tmp.resolve("n.tgz");
    try (GZIPOutputStream gz = new GZIPOutputStream(Files.newOutputStream(notTar))) {
      gz.write("hello, this is not a tar archive\n".repeat(40).getBytes(StandardCharsets.UTF_8));
    }
    assertThatThrownBy(() -> TarGz.extract(notTar, tmp.resolve("n"))).hasMessageContaining("checksum");
  }

  @Test
  void goodLinksInsideAreKept() throws IOException {
    List<Entry> es = new ArrayList<>();
    es.add(file("dev/infiniband/uverbs0", ""));
    es.add(symlink("dev/infiniband/by-ibdev/mlx5_0", "../uverbs0"));
    es.add(symlink("here", "."));
    Path a = archive(es.toArray(Entry[]::new));
    Path into = into();
    TarGz.extract(a, into);
    assertThat(Files.readSymbolicLink(into.resolve("dev/infiniband/by-ibdev/mlx5_0")).toString()).isEqualTo("../uverbs0");
    assertThat(into.resolve("here/dev/infiniband/by-ibdev/mlx5_0")).exists();
  }
}
