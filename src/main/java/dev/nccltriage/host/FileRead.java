package dev.nccltriage.host;

/**
 * Reading one file through the root: {@code status} is {@code ok}, {@code missing}, {@code
 * denied} or {@code error}; {@code text} is its content when ok (capped).
 */
public record FileRead(String path, String status, String text, String detail) {
  public boolean ok() {
    return status.equals("ok");
  }
}
