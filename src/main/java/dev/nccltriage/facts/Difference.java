package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.List;

/** A node (or process) that disagrees with the rest of the job, and on what. */
public record Difference(String who, String aspect, String what, List<Evidence> evidence) {}
