/**
 * Reading a record's `schema_version`: 3 is read; 1 and 2, the original's earlier formats, are
 * refused by their own name with what to do instead; anything else is left to the caller's
 * own "malformed" refusal.
 *
 * Why no converter. Schema 1 wrote the sign `unknown`, which schema 2 split into `unset` and
 * `ungoverned`; the original forbids narrowing it, so no schema-3 sign is a faithful reading of
 * it. Schema 2 would convert (same fields, no `algorithm` member, always SHA-256), but the
 * converted bytes are new bytes: the hash and any signature a peer gave over the schema-2 bytes
 * would not cover them, and a record that reads as signed when it is not is worse than a
 * refusal. The writer that produced the record can write schema 3; that is the remedy named.
 */
import { ConnectomeError } from './errors.js';
import { SCHEMA_VERSION } from './vocabulary.js';

/** The original's earlier formats: 1 (sign `unknown`) and 2 (no `algorithm`, SHA-256 only). */
export const OLDER_SCHEMA_VERSIONS: readonly number[] = Object.freeze([1, 2]);

/**
 * Refuses schema 1 and 2 with `PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED`, naming `where` and
 * the remedy; returns whether the value is the schema this package reads.
 */
export function isCurrentSchema(value: unknown, where: string): boolean {
  if (typeof value === 'number' && OLDER_SCHEMA_VERSIONS.includes(value)) {
    const why =
      value === 1
        ? 'its sign "unknown" has no faithful schema-3 reading'
        : 'converting it would change the bytes its hash and any signature cover';
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED',
      `${where}: schema ${value} is not supported (${why}); re-export it as schema ${SCHEMA_VERSION} with the writer that made it (palisade-mcp, or the original at 0.6 or later)`,
    );
  }
  return value === SCHEMA_VERSION;
}
