package dev.nccltriage.rules;

import java.util.Map;

/**
 * A test case kept with its rule: facts (name to value) and the expected outcome — "fires" or
 * "quiet" for causes, lints and gates; "yes", "no", "unknown" or "n/a" for questions.
 */
public record RuleCase(Map<String, Object> facts, String expect, int line) {}
