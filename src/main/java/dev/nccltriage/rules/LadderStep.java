package dev.nccltriage.rules;

import dev.nccltriage.evidence.Evidence;
import java.util.List;

/** One rung of the in-Pod ladder as the rules judged it: pass, warn, fail, skip or error. */
public record LadderStep(int step, String rule, String name, String status, String observed,
    List<Evidence> evidence) {}
