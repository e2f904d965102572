package dev.nccltriage.facts;

/** The value types a fact can have; conditions check their operators against these. */
public enum FactType {
  BOOL,
  NUMBER,
  TEXT,
  VERSION,
  LIST
}
