package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.LogFacts;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The IB transport's line per queue pair is taken without being kept, decoded or classified
 * (IbConnectionLines): what it makes of such a line must be what the line-by-line path makes of
 * it. That path's answer is had by spelling " qpn " as " qpN ", which no test of that path reads
 * and which turns the shortcut off: the facts of both logs must be equal. The lines are NCCL's
 * per-queue-pair shapes of every version, and the same with what would make the line another
 * family's or an error (where the shortcut must decline), as INFO and as WARN lines.
 */
class IbConnectionLinesTest {
  private static final String[] SHAPES = {
    "NET/IB: Dev %d Port 1 qpn %d mtu 5 LID %d",
    "NET/IB: Dev %d Port 1 qpn %d mtu 5 GID 3 (0/%dFFFF0000)",
    "NET/IB: NCCL Dev %d IbDev %d Port 1 qpn %d mtu 5 LID 12 subnet-prefix 18338657682652659712 FLID 0 fifoRkey=0x1f fifoLkey=0x2e",
    "NET/IB: NCCL MergedDev %d IbDev %d Port 1 qpn %d mtu 5 query_ece={supported=1, vendor_id=0x2c9, options=0x30000002,"
        + " comp_mask=0x0} GID 3 (0/8aa67235FFFF0000) fifoRkey=0x9d5931 fifoLkey=0x65ffa0",
    "NET/IB: IbDev %d Port 1 qpn %d set_ece={supported=1, vendor_id=0x2c9, options=0x%d, comp_mask=0x0}",
    "NET/IB : Dev %d Port 1 qpn %d mtu 5 LID %d",
  };
  /** What makes such a text something else: each must leave the shortcut declining. */
  private static final String[] TAILS = {
    "", " gid query failed", " GID 3 is invalid", " Unable to read the port", " transport/net_ib.cc:%d -> 3",
    " No device found.", " Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>", " GPU Direct RDMA Enabled for HCA 0",
    " for sideband communication", " Got completion from peer 10.0.0.2<4567> with error 12", " Got async event : port error",
    " comm 0x7f00aa rank 3", " remote process exited or there was a network error", " Call to ibv_modify_qp failed",
    " connect to 10.0.0.2<4567> failed", " No IP interface found.", " NOT FOUND", " \u00e9t\u00e9",
  };

  private static String log(boolean shortcut) {
    Random r = new Random(7);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 4000; i++) {
      String text = String.format(SHAPES[r.nextInt(SHAPES.length)], r.nextInt(8), r.nextInt(900000), r.nextInt(2000))
          + String.format(TAILS[r.nextInt(TAILS.length)], r.nextInt(2000));
      if (r.nextInt(20) == 0) { // other families' lines, with a qpn among their first words
        text = r.nextBoolean() ? "NET/IB: [0] mlx5_0:1/IB qpn 5" : "NET/IB : Using [0]mlx5_0:1/IB qpn 5 ; OOB eth0:10.0.0.1<0>";
      }
      String level = r.nextInt(10) == 0 ? "WARN" : "INFO";
      int host = r.nextInt(4);
      b.append("node-").append(host).append(':').append(100 + host).append(':').append(100 + host).append(" [0] NCCL ")
          .append(level).append(' ').append(shortcut ? text : text.replace(" qpn ", " qpN ")).append('\n');
      if (r.nextInt(5) == 0) {
        b.append("node-").append(host).append(':').append(100 + host).append(':').append(100 + host)
            .append(" [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/IB/0/GDRDMA\n");
      }
    }
    return b.toString();
  }

  private static List<Object> facts(LogFacts f) {
    return List.of(String.valueOf(f.transport()), String.valueOf(f.rdma()), f.ibLogged(), f.ibNoDevice(), f.processes(),
        String.valueOf(f.hcas()), String.valueOf(f.oobInterfaces()), String.valueOf(f.gdr()),
        f.errors().stream().map(e -> e.kind() + "/" + e.detail() + "/" + e.status() + "/" + e.count() + "/" + e.hosts()).toList(),
        f.nodeDetails().stream().map(n -> n.host() + "/" + n.transport() + "/" + n.hcaPorts() + "/" + n.oobInterface()).toList(),
        f.ncclLines(), f.signals().failed(), f.signals().warnings(), f.netChannels().toString());
  }

  @Test
  void theShortcutMakesOfEachLineWhatTheLineByLinePathMakes() {
    LogFacts fast = Logs.parse(log(true));
    LogFacts slow = Logs.parse(log(false));
    assertThat(facts(fast)).isEqualTo(facts(slow));
    assertThat(fast.errors()).as("the tails that are errors were read as such").isNotEmpty();
    assertThat(fast.ibLogged()).isTrue();
  }
}
