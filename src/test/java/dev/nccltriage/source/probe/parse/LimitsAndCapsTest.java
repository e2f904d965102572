package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.UlimitL.Reading;
import dev.nccltriage.source.probe.parse.UlimitL.Which;
import java.util.List;
import org.junit.jupiter.api.Test;

class LimitsAndCapsTest {

  // ---- /proc/PID/limits

  @Test
  void procLimitsMemlockUnlimitedTrailingPaddingStripped() {
    ProcLimits.Result r = ProcLimits.parse(
        Fixtures.read("proc-self-limits/coreos-1069-proc-pid-limits-memlock-unlimited"));
    assertThat(r.limits()).hasSize(13);
    assertThat(r.memlock().soft().unlimited()).isTrue();
    assertThat(r.memlock().hard().unlimited()).isTrue();
    assertThat(r.memlock().units()).isEqualTo("bytes");
    assertThat(r.memlockSoftBytes()).isEqualTo(ProcLimits.UNLIMITED);
    assertThat(r.memlockHardBytes()).isEqualTo(-1L);
    assertThat(r.limits().get(3).name()).isEqualTo("Max stack size");
    assertThat(r.limits().get(3).soft().value()).isEqualTo(8388608L);
  }

  @Test
  void procLimitsKernelPaddingAndNumbers() {
    String t = "Limit                     Soft Limit           Hard Limit           Units     \r\n"
        + "Max locked memory         65536                8388608              bytes     \r\n";
    ProcLimits.Result r = ProcLimits.parse(t);
    assertThat(r.memlockSoftBytes()).isEqualTo(65536L);
    assertThat(r.memlockHardBytes()).isEqualTo(8388608L);
    assertThat(ProcLimits.parse("Max open files 1 2").memlock()).isNull();
  }

  // ---- /proc/PID/status

  @Test
  void containerdDefaultHasNoIpcLockAndJoinedPastes() {
    String text = Fixtures.read("proc-self-status-capeff/containerd-6289-default-and-added-caps");
    List<String> pastes = Text.pastes(text);
    assertThat(pastes).hasSize(3);
    ProcStatus.Result def = ProcStatus.parse(pastes.get(0));
    assertThat(def.capEff()).isEqualTo(0xa80425fbL);
    assertThat(def.capPrm()).isEqualTo(0xa80425fbL);
    assertThat(def.capBnd()).isEqualTo(0xa80425fbL);
    assertThat(def.capAmb()).isZero();
    assertThat(def.effectiveIpcLock()).isFalse();
    assertThat(ProcStatus.hasCapability(def.capEff(), ProcStatus.CAP_NET_RAW)).isTrue();
    ProcStatus.Result sysAdmin = ProcStatus.parse(pastes.get(1));
    assertThat(ProcStatus.hasCapability(sysAdmin.capEff(), ProcStatus.CAP_SYS_ADMIN)).isTrue();
    ProcStatus.Result noRaw = ProcStatus.parse(pastes.get(2));
    assertThat(ProcStatus.hasCapability(noRaw.capEff(), ProcStatus.CAP_NET_RAW)).isFalse();
    // whole text: last value wins
    assertThat(ProcStatus.parse(text).capEff()).isEqualTo(0xa80405fbL);
  }

  @Test
  void htopFormat() {
    ProcStatus.Result r =
        ProcStatus.parse(Fixtures.read("proc-self-status-capeff/htop-46-capeff-format"));
    assertThat(r.capInh()).isEqualTo(0x1000400L);
    assertThat(r.capEff()).isEqualTo(0x1000400L);
    assertThat(r.capAmb()).isEqualTo(0x1000400L);
    assertThat(r.effectiveIpcLock()).isFalse();
  }

  @Test
  void markdownTableIsNotStatusButMaskHelperReadsItsCells() {
    String text = Fixtures.read(
        "proc-self-status-capeff/nvidia-container-toolkit-2037-nonroot-ipc-lock-lost-table");
    ProcStatus.Result r = ProcStatus.parse(text);
    assertThat(r.capEff()).isNull();
    assertThat(r.effectiveIpcLock()).isNull();
    assertThat(ProcStatus.hasCapability(ProcStatus.parseMask("`a80465fb`"),
        ProcStatus.CAP_IPC_LOCK)).isTrue();
    assertThat(ProcStatus.hasCapability(ProcStatus.parseMask("0000000000000000"),
        ProcStatus.CAP_IPC_LOCK)).isFalse();
  }

  @Test
  void statusUidGidTabsCrlfAndFullMask() {
    String t = "Name:\tpython\r\nUid:\t1000\t1000\t1000\t1000\r\nGid:\t0\t0\t0\t0\r\n"
        + "CapEff:\t000001ffffffffff\r\n";
    ProcStatus.Result r = ProcStatus.parse(t);
    assertThat(r.name()).isEqualTo("python");
    assertThat(r.uidReal()).isEqualTo(1000);
    assertThat(r.uidEffective()).isEqualTo(1000);
    assertThat(r.uidFs()).isEqualTo(1000);
    assertThat(r.gidReal()).isZero();
    assertThat(r.effectiveIpcLock()).isTrue();
    assertThat(ProcStatus.hasCapability(-1L, 63)).isTrue();
    assertThat(ProcStatus.hasCapability(-1L, 64)).isFalse();
    assertThat(ProcStatus.parseMask("zz")).isNull();
    assertThat(ProcStatus.parseMask("0x4000")).isEqualTo(0x4000L);
  }

  // ---- ulimit -l

  private static UlimitL.Result ulimit(String name) {
    return UlimitL.parse(Fixtures.read("ulimit-l/" + name));
  }

  @Test
  void ulimitHaLineUnlimited() {
    UlimitL.Result r = ulimit("docker-for-linux-1099-ulimit-Ha-unlimited");
    assertThat(r.readings()).containsExactly(new Reading(null, true, Which.HARD));
    assertThat(r.unlimited()).isTrue();
    assertThat(r.kib()).isNull();
  }

  @Test
  void ulimitCannotModify() {
    UlimitL.Result r = ulimit("elasticsearch-kubernetes-3-cannot-raise-in-container");
    assertThat(r.readings()).isEmpty();
    assertThat(r.messages()).singleElement().asString().contains("cannot modify limit");
  }

  @Test
  void ulimitPlain65536IsKib() {
    UlimitL.Result r = ulimit("gardenlinux-128-ulimit-l-65536-bytes-vs-kbytes");
    assertThat(r.readings()).containsExactly(new Reading(65536L, false, Which.SOFT));
    assertThat(r.readings().get(0).bytes()).isEqualTo(64L * 1024 * 1024);
  }

  @Test
  void ulimitALineWithoutCommand() {
    UlimitL.Result r = ulimit("gardenlinux-170-containerd-line-65536");
    assertThat(r.readings()).containsExactly(new Reading(65536L, false, Which.UNSPECIFIED));
  }

  @Test
  void ulimitProseIsNotMined() {
    UlimitL.Result r = ulimit("nccl-tests-206-prose-8192-fix");
    assertThat(r.readings()).isEmpty();
    assertThat(r.kib()).isNull();
  }

  @Test
  void ulimitHostThenContainerLastWins() {
    UlimitL.Result r = ulimit("qdrant-1885-host-vs-docker-8192");
    assertThat(r.readings()).extracting(Reading::kib).containsExactly(4096216L, 8192L);
    assertThat(r.kib()).isEqualTo(8192L);
    assertThat(r.unlimited()).isFalse();
  }

  @Test
  void ulimitBareAndCrlf() {
    assertThat(UlimitL.parse("unlimited\r\n").unlimited()).isTrue();
    assertThat(UlimitL.parse("64\n").kib()).isEqualTo(64L);
    assertThat(UlimitL.parse("$ ulimit -Hl\n8192\n").readings())
        .containsExactly(new Reading(8192L, false, Which.HARD));
    assertThat(UlimitL.parse("unlimited").readings().get(0).bytes()).isEqualTo(-1L);
  }

  @Test
  void ulimitCommandAfterAnyShellPromptOrNone() {
    // no prompt (a script's output), openSUSE bash "host:~>", zsh "host ~ %"
    assertThat(UlimitL.parse("ulimit -Hl\n8192\n").readings())
        .containsExactly(new Reading(8192L, false, Which.HARD));
    assertThat(UlimitL.parse("gpu-node-3:~> ulimit -Hl\n8192\n").readings())
        .containsExactly(new Reading(8192L, false, Which.HARD));
    assertThat(UlimitL.parse("admin@gpu-node-3 ~ % ulimit -Hl\n8192\n").readings())
        .containsExactly(new Reading(8192L, false, Which.HARD));
  }

  @Test
  void ulimitCommandInsideProseIsNoCommand() {
    // advice in prose names the command; the value after it was not read with -l's flags
    assertThat(UlimitL.parse("To raise it, run ulimit -Hl unlimited as root\n64\n").readings())
        .containsExactly(new Reading(64L, false, Which.UNSPECIFIED));
  }
}
