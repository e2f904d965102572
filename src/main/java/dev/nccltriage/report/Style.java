package dev.nccltriage.report;

/** ANSI styling that turns itself off when colour is not wanted. */
final class Style {
  private final boolean on;

  Style(boolean on) {
    this.on = on;
  }

  String bold(String s) {
    return wrap("1", s);
  }

  String dim(String s) {
    return wrap("2", s);
  }

  String red(String s) {
    return wrap("31", s);
  }

  String green(String s) {
    return wrap("32", s);
  }

  String yellow(String s) {
    return wrap("33", s);
  }

  String status(String status, String text) {
    return switch (status) {
      case "healthy", "yes" -> green(text);
      case "problem", "no" -> red(text);
      default -> yellow(text);
    };
  }

  private String wrap(String code, String s) {
    return on ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
  }
}
