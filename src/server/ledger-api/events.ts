/**
 * Visibility and the event shapes of the reference server's Ledger API, as Canton's OpenAPI
 * document (JSON Ledger API v2, 3.5.7) names them: `CreatedEvent`, `ArchivedEvent`, `JsTransaction`
 * (ACS-delta shape). Visibility as a participant decides it (docs/decisions/server.md "Ledger
 * API"): a requested party sees a contract's events when it is one of the contract's stakeholders
 * (signatory or observer) and one of its filters matches the contract's template; the event's
 * `witnessParties` are those parties, and it carries the `createdEventBlob` when one of the
 * matching filters asks for it.
 */
import { createHash } from 'node:crypto';
import { formatBase64 } from '../../core/codec/bytes.js';
import { formatApiTimestampMicros } from '../../core/wire/timestamp.js';
import type { LedgerReserveContract, LedgerReserveUpdate } from '../../sim/exchange.js';
import type { EventFormat, IdentifierFilter } from './request.js';

/** What one requesting reader sees of a contract: the witnesses, and whether the blob is asked for. */
export interface ContractVisibility {
  readonly witnesses: readonly string[];
  readonly includeBlob: boolean;
}

/**
 * The synchronizer every event of the simulated ledger is sequenced by: `alias::namespace`, the
 * namespace a SHA-256 multihash (`1220` ‖ 64 hex) of the alias, as Canton writes namespaces.
 */
export const SYNCHRONIZER_ID = `reserve-audit-reference::1220${createHash('sha256')
  .update('reserve-audit-reference')
  .digest('hex')}`;

function matchesTemplate(filter: IdentifierFilter, c: LedgerReserveContract): boolean {
  if (filter.kind === 'wildcard') return true;
  if (filter.kind === 'interface') return false;
  return isTemplateReference(filter.templateId, c);
}

/** Whether a template reference names this template (by package ID or `#package-name`). */
export function isTemplateReference(ref: string, t: { templateId: string; packageName: string }): boolean {
  if (ref === t.templateId) return true;
  return ref === `#${t.packageName}${t.templateId.slice(t.templateId.indexOf(':'))}`;
}

/** What `format`'s parties see of `c`, or null when none of them sees it. */
export function computeVisibility(c: LedgerReserveContract, format: EventFormat): ContractVisibility | null {
  const witnesses: string[] = [];
  let includeBlob = false;
  for (const [party, filters] of format.byParty) {
    if (!c.signatories.includes(party) && !c.observers.includes(party)) continue;
    const matching = filters.filter((f) => matchesTemplate(f, c));
    if (matching.length === 0) continue;
    witnesses.push(party);
    if (matching.some((f) => f.kind !== 'interface' && f.includeBlob)) includeBlob = true;
  }
  return witnesses.length === 0 ? null : { witnesses, includeBlob };
}

/** A Ledger API timestamp: RFC 3339 in UTC with microseconds (`2026-01-02T03:04:05.123456Z`). */
function formatLedgerTimestamp(micros: bigint): string {
  return formatApiTimestampMicros(micros).replace(/\+00:00$/, 'Z');
}

/** `CreatedEvent`. */
export function formatCreatedEvent(c: LedgerReserveContract, v: ContractVisibility): Record<string, unknown> {
  return {
    offset: c.created.offset,
    nodeId: c.created.nodeId,
    contractId: c.contractId,
    templateId: c.templateId,
    createArgument: c.createArgument,
    createdEventBlob: v.includeBlob ? formatBase64(c.createdEventBlob) : '',
    interfaceViews: [],
    witnessParties: v.witnesses,
    signatories: c.signatories,
    observers: c.observers,
    createdAt: formatLedgerTimestamp(c.createdAtMicros),
    packageName: c.packageName,
    representativePackageId: c.templateId.slice(0, c.templateId.indexOf(':')),
    acsDelta: true,
  };
}

/** `ArchivedEvent` (of an archived contract). */
export function formatArchivedEvent(
  c: LedgerReserveContract,
  v: ContractVisibility,
): Record<string, unknown> | null {
  if (c.archived === null) return null;
  return {
    offset: c.archived.offset,
    nodeId: c.archived.nodeId,
    contractId: c.contractId,
    templateId: c.templateId,
    witnessParties: v.witnesses,
    packageName: c.packageName,
    implementedInterfaces: [],
  };
}

/**
 * `JsGetUpdatesResponse` of one update in the ACS-delta shape: the events `format` sees, or null
 * when it sees none (such an update is not in the reader's stream).
 */
export function formatTransactionUpdate(u: LedgerReserveUpdate, format: EventFormat): unknown {
  const events: unknown[] = [];
  let effectiveMicros: bigint | null = null;
  for (const e of u.events) {
    const v = computeVisibility(e.contract, format);
    if (e.kind === 'created') effectiveMicros ??= e.contract.createdAtMicros;
    if (v === null) continue;
    events.push(
      e.kind === 'created'
        ? { CreatedEvent: formatCreatedEvent(e.contract, v) }
        : { ArchivedEvent: formatArchivedEvent(e.contract, v) },
    );
  }
  if (events.length === 0) return null;
  return {
    update: {
      Transaction: {
        value: {
          updateId: u.updateId,
          commandId: '',
          workflowId: '',
          effectiveAt: formatLedgerTimestamp(effectiveMicros ?? u.recordMicros),
          events,
          offset: u.offset,
          synchronizerId: SYNCHRONIZER_ID,
          recordTime: formatLedgerTimestamp(u.recordMicros),
        },
      },
    },
  };
}
