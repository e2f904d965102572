package dev.nccltriage.facts;

import dev.nccltriage.evidence.Evidence;
import java.util.List;

/**
 * A known failure NCCL logged. {@code kind} is one of the names in {@link ErrorKind}; {@code
 * detail} is the errno text or device name when the line gives one; {@code status} the completion
 * status number for completion errors.
 */
public record ErrorSignature(
    String kind, String detail, Integer status, long count, List<String> hosts, List<Evidence> evidence) {}
