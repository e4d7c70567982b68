import { StorageError } from './storage-client';

// Whether a storage error means "not available now, try again" (503 with Retry-After) or "the storage answered and
// refused" (4xx with its reason). ClickHouse 18.16 answers most exceptions with HTTP 500, so the HTTP status does not
// tell them apart: an answer that carries a ClickHouse error code is a refusal unless the code is one of those that
// name a passing condition (a shard unreachable or slow, memory, too many queries or parts, no ZooKeeper).

const PASSING_CODES = new Set([
  3, // UNEXPECTED_END_OF_FILE (a shard's connection closed mid-answer)
  32, // ATTEMPT_TO_READ_AFTER_EOF
  159, // TIMEOUT_EXCEEDED
  160, // TOO_SLOW
  202, // TOO_MANY_SIMULTANEOUS_QUERIES
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  225, // NO_ZOOKEEPER
  241, // MEMORY_LIMIT_EXCEEDED
  242, // TABLE_IS_READ_ONLY (a replica without its ZooKeeper session)
  252, // TOO_MANY_PARTS
  279, // ALL_CONNECTION_TRIES_FAILED
  285, // TOO_FEW_LIVE_REPLICAS
  319, // UNKNOWN_STATUS_OF_INSERT
  394, // QUERY_WAS_CANCELLED
  425, // SYSTEM_ERROR
  999, // KEEPER_EXCEPTION
]);

/** Seconds a client is asked to wait before trying again after an unavailable storage (Retry-After). */
export const STORAGE_RETRY_AFTER_S = 5;

/** True when the error is the storage being unavailable (retry later), false when the storage refused. */
export function storageUnavailable(error: unknown): boolean {
  if (!(error instanceof StorageError)) return true;
  if (error.code === undefined) return error.status >= 500;
  return PASSING_CODES.has(error.code);
}
