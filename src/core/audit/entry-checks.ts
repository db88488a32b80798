/**
 * Malformed pool entries (the issue "one bad pool must not hide the others"): /pools/proof and
 * /pools/state are read pool by pool (src/core/wire `parsePoolsProofPerPool`,
 * `parsePoolsStatePerPool`), and an entry without the documented shape — a reserve sent as a JSON
 * number, a negative or `1e400` amount, a blob that is not base64 — is set aside. Here each such
 * entry becomes that pool's error finding; the other pools are checked as usual. Tampering with one
 * entry therefore fails the audit (exit 1) instead of turning it into "could not check".
 */
import { type AuditCollector, makeFinding } from './finding.js';
import type { MalformedEntry } from './snapshot.js';

const label = (m: MalformedEntry): string => (m.poolId === null ? `entry ${m.index}` : `pool ${m.poolId}`);

/** A non-base64 `created_event_blob` is the blob's finding; any other bad field the entry's. */
const isBlobPath = (path: string): boolean => /\.created_event_blob$/.test(path);

/** Checks `proof.entry`: one failed check per malformed /pools/proof entry. */
export function checkMalformedProofEntries(c: AuditCollector, entries: readonly MalformedEntry[]): void {
  for (const m of entries) {
    const evidence = { index: m.index, path: m.path, expected: m.expected, got: m.message };
    c.record('proof', 'proof.entry', m.poolId, [
      isBlobPath(m.path)
        ? makeFinding(
            'PROOF_BLOB_MALFORMED',
            m.poolId,
            `/pools/proof ${label(m)}: created_event_blob is not base64: ${m.message}`,
            evidence,
          )
        : makeFinding(
            'PROOF_ENTRY_MALFORMED',
            m.poolId,
            `/pools/proof ${label(m)} is malformed: ${m.message}`,
            evidence,
          ),
    ]);
  }
}

/** Checks `state.entry`: one failed check per malformed /pools/state entry. */
export function checkMalformedStateEntries(c: AuditCollector, entries: readonly MalformedEntry[]): void {
  for (const m of entries)
    c.record('state', 'state.entry', m.poolId, [
      makeFinding('STATE_ENTRY_MALFORMED', m.poolId, `/pools/state ${label(m)} is malformed: ${m.message}`, {
        index: m.index,
        path: m.path,
        expected: m.expected,
        got: m.message,
      }),
    ]);
}

/** The pool ids named by malformed entries (those whose pool id was readable). */
export function computeMalformedPools(entries: readonly MalformedEntry[]): Set<string> {
  return new Set(entries.flatMap((m) => (m.poolId === null ? [] : [m.poolId])));
}
