package dev.nccltriage.facts;

/** One input of a job's log: how many lines it had, how many were NCCL's, how many were not placed. */
public record InputStats(String source, long lines, long ncclLines, long unplacedLines, long truncatedLines) {}
