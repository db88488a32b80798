/**
 * The followed ledger in tests (tests only): THE proof step over a reference-template contract as
 * the follower and the audit run it on the simulator's ledger (the simulator's types, the default
 * reserve profile, node's SHA-256); the simulator's reserve events as `mirror follow` stores them;
 * a reader's token; and the arguments of a `mirror follow` command line.
 */
import type { FollowedAuditEvent } from '../../src/core/audit/followed-history-checks.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { type ReserveProof, verifyReserveProof } from '../../src/core/proof/reserve-proof.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { formatLedgerToken } from '../../src/server/ledger-api/auth.js';
import type { SimulatedExchange } from '../../src/sim/ledger.js';
import { RESERVE_TYPE_ENV } from '../../src/sim/mint.js';

/** A token reading as `parties`, signed with `secret`, valid an hour: what `reserve-audit ledger-token` mints. */
export const mintReaderToken = (
  secret: Uint8Array,
  user: string,
  parties: readonly string[],
): Promise<string> =>
  formatLedgerToken({ secret, user, readAs: [...parties], expiresInSeconds: 3600, nowMs: Date.now() });

export const verifyReferenceReserve = (contractId: string, blob: Uint8Array): ReserveProof =>
  verifyReserveProof({
    contractId,
    blob,
    types: RESERVE_TYPE_ENV,
    profile: DEFAULT_RESERVE_PROFILE,
    sha256: sha256Node,
  });

/** The reserve events of the simulator's ledger after `after`, in stream order, as the follower stores them. */
export function readSimulatedFollowedEvents(ex: SimulatedExchange, after = 0): FollowedAuditEvent[] {
  const out: FollowedAuditEvent[] = [];
  ex.reserveUpdates(after, ex.ledgerEnd(), Number.MAX_SAFE_INTEGER, (u) => {
    u.events.forEach((e, nodeSeq) => {
      out.push({
        offset: u.offset,
        nodeSeq,
        contractId: e.contract.contractId,
        kind: e.kind,
        createdEventBlob: e.kind === 'created' ? e.contract.createdEventBlob : null,
        ledgerTimeMs: Number(u.recordMicros / 1000n),
      });
    });
    return true;
  });
  return out;
}

/** `mirror follow --mirror M --ledger-api URL --ledger-party P [--ledger-token-file F]`. */
export function formatMirrorFollowArgs(o: {
  readonly mirror: string;
  readonly ledgerUrl: string;
  readonly party: string;
  readonly tokenFile?: string;
}): string[] {
  return [
    'mirror',
    'follow',
    '--mirror',
    o.mirror,
    '--ledger-api',
    o.ledgerUrl,
    '--ledger-party',
    o.party,
    ...(o.tokenFile === undefined ? [] : ['--ledger-token-file', o.tokenFile]),
  ];
}
