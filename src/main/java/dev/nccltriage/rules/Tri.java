package dev.nccltriage.rules;

/** Kleene three-valued logic: a condition over an unknown fact is unknown, not false. */
enum Tri {
  TRUE,
  FALSE,
  UNKNOWN;

  static Tri of(boolean b) {
    return b ? TRUE : FALSE;
  }

  Tri not() {
    return this == TRUE ? FALSE : this == FALSE ? TRUE : UNKNOWN;
  }
}
