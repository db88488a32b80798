/**
 * Strict readers of the ledger API's answers (issue 26): the parts of Canton's documented shapes
 * (./generated/ledger-api-v2.ts, generated from the published OpenAPI document) the audit uses,
 * checked before they are trusted — a participant's answer passes through a network the auditor
 * does not control. The 3.4 and 3.5 forms of a field are both read: 3.4 marks some fields required
 * that 3.5 makes optional (an omitted ledger-end `offset` is 0, an omitted or empty
 * `createdEventBlob` is "not included"), and an int64 may come as a JSON number or a decimal string.
 * Each reader returns a `Pick` of the generated type, so the shapes are Canton's, not ours.
 */
import { formatGot } from '../../errors/base.js';
import { LedgerReadError } from '../../errors/ledger-read.js';
import type { components } from './generated/ledger-api-v2.js';

type Schemas = components['schemas'];

/** The created event fields the audit reads (a blob absent or empty → null). */
export type LedgerCreatedEvent = Pick<
  Schemas['CreatedEvent'],
  'contractId' | 'offset' | 'templateId' | 'createdAt'
> & {
  readonly createdEventBlob: string | null;
};
type LedgerArchivedEvent = Pick<Schemas['ArchivedEvent'], 'contractId' | 'offset'>;

/** One event of a followed transaction: a created or an archived reserve contract. */
type LedgerStreamEvent =
  | ({ readonly kind: 'created' } & LedgerCreatedEvent & Pick<Schemas['CreatedEvent'], 'nodeId'>)
  | ({ readonly kind: 'archived' } & Pick<
      Schemas['ArchivedEvent'],
      'contractId' | 'offset' | 'nodeId' | 'templateId'
    >);

/** A transaction of the update stream (ACS-delta shape): its offset, ledger time (ms) and events. */
export type LedgerStreamTransaction = Pick<Schemas['JsTransaction'], 'offset' | 'updateId'> & {
  readonly effectiveAtMs: number;
  readonly events: readonly LedgerStreamEvent[];
};
export interface LedgerEventsOfContract {
  readonly created: LedgerCreatedEvent | null;
  readonly archived: LedgerArchivedEvent | null;
}
/** A Canton error body (`JsCantonError`): its code and cause, the rest is not read. */
export type LedgerCantonError = Pick<Schemas['JsCantonError'], 'code' | 'cause'>;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(path: string, rule: string, got: unknown): never {
  throw new LedgerReadError('LEDGER_RESPONSE_INVALID', `"${path}" expected ${rule}, got ${formatGot(got)}`);
}

function readObject(v: unknown, path: string): Record<string, unknown> {
  if (!isObj(v)) bad(path, 'an object', v);
  return v;
}

function readString(o: Record<string, unknown>, key: string, path: string, max = 10_000): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length === 0 || v.length > max)
    bad(`${path}.${key}`, `a string of 1–${max} characters`, v);
  return v;
}

/** An int64 offset: a non-negative safe integer, as a JSON number or a decimal string. */
function parseLedgerOffset(v: unknown, path: string): number {
  const n = typeof v === 'string' && /^[0-9]{1,16}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    bad(path, 'a non-negative integer offset', v);
  return n;
}

/** A ledger time (`createdAt`, `effectiveAt`): RFC 3339 with a zone, as ms. */
export function parseLedgerTime(v: unknown, path: string): number {
  if (
    typeof v !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(v)
  )
    bad(path, 'an RFC 3339 timestamp', v);
  const ms = Date.parse(v.replace(/(\.\d{3})\d+/, '$1'));
  if (!Number.isFinite(ms)) bad(path, 'a valid timestamp', v);
  return ms;
}

const BLOB_MAX = 4 * 1024 * 1024;

function readCreated(v: unknown, path: string): LedgerCreatedEvent {
  const o = readObject(v, path);
  const blob = o.createdEventBlob;
  if (blob !== undefined && blob !== null && (typeof blob !== 'string' || blob.length > BLOB_MAX))
    bad(`${path}.createdEventBlob`, 'a base64 string', blob);
  return {
    contractId: readString(o, 'contractId', path, 1024),
    offset: parseLedgerOffset(o.offset, `${path}.offset`),
    templateId: readString(o, 'templateId', path, 1024),
    createdAt: readString(o, 'createdAt', path, 64),
    createdEventBlob: typeof blob === 'string' && blob.length > 0 ? blob : null,
  };
}

/** `JsGetEventsByContractIdResponse`: `{created?: {createdEvent}, archived?: {archivedEvent}}`. */
export function parseEventsByContractId(json: unknown): LedgerEventsOfContract {
  const o = readObject(json, 'body');
  const created = o.created === undefined || o.created === null ? null : readObject(o.created, 'created');
  const archived =
    o.archived === undefined || o.archived === null ? null : readObject(o.archived, 'archived');
  let a: LedgerArchivedEvent | null = null;
  if (archived !== null) {
    const e = readObject(archived.archivedEvent, 'archived.archivedEvent');
    a = {
      contractId: readString(e, 'contractId', 'archived.archivedEvent', 1024),
      offset: parseLedgerOffset(e.offset, 'archived.archivedEvent.offset'),
    };
  }
  return {
    created: created === null ? null : readCreated(created.createdEvent, 'created.createdEvent'),
    archived: a,
  };
}

/** `GetLedgerEndResponse`: the offset (absent in 3.5 when the ledger is empty → 0). */
export function parseLedgerEnd(json: unknown): number {
  const o = readObject(json, 'body');
  return o.offset === undefined ? 0 : parseLedgerOffset(o.offset, 'offset');
}

/** `GetLatestPrunedOffsetsResponse`: `participantPrunedUpToInclusive` (absent → 0, nothing pruned). */
export function parseLatestPrunedOffset(json: unknown): number {
  const o = readObject(json, 'body');
  const v = o.participantPrunedUpToInclusive;
  return v === undefined ? 0 : parseLedgerOffset(v, 'participantPrunedUpToInclusive');
}

/**
 * `JsGetActiveContractsResponse[]`: the created events of the `JsActiveContract` entries (other
 * entry kinds — incomplete (un)assignments, empty — carry no active contract here and are skipped).
 */
export function parseActiveContracts(json: unknown, maxEntries = 1_000_000): LedgerCreatedEvent[] {
  if (!Array.isArray(json)) bad('body', 'an array of JsGetActiveContractsResponse', json);
  if (json.length > maxEntries) bad('body', `at most ${maxEntries} entries`, json.length);
  const out: LedgerCreatedEvent[] = [];
  json.forEach((item, i) => {
    const o = readObject(item, `[${i}]`);
    if (o.contractEntry === undefined || o.contractEntry === null) return;
    const entry = readObject(o.contractEntry, `[${i}].contractEntry`);
    if (entry.JsActiveContract === undefined) return;
    const active = readObject(entry.JsActiveContract, `[${i}].contractEntry.JsActiveContract`);
    out.push(readCreated(active.createdEvent, `[${i}].contractEntry.JsActiveContract.createdEvent`));
  });
  return out;
}

/**
 * `JsGetUpdatesResponse[]` of the updates over one offset: the `effectiveAt` (ms) of the transaction at
 * `offset`; null when none is (an offset checkpoint, a reassignment, or nothing the party sees).
 */
export function parseUpdatesEffectiveAt(json: unknown, offset: number, maxEntries = 10_000): number | null {
  if (!Array.isArray(json)) bad('body', 'an array of JsGetUpdatesResponse', json);
  if (json.length > maxEntries) bad('body', `at most ${maxEntries} entries`, json.length);
  for (const [i, item] of json.entries()) {
    const o = readObject(item, `[${i}]`);
    if (o.update === undefined || o.update === null) continue;
    const u = readObject(o.update, `[${i}].update`);
    if (u.Transaction === undefined) continue;
    const t = readObject(
      readObject(u.Transaction, `[${i}].update.Transaction`).value,
      `[${i}].update.Transaction.value`,
    );
    if (parseLedgerOffset(t.offset, `[${i}].update.Transaction.value.offset`) !== offset) continue;
    return parseLedgerTime(t.effectiveAt, `[${i}].update.Transaction.value.effectiveAt`);
  }
  return null;
}

/**
 * `JsGetUpdatesResponse[]` of a range of the update stream: its transactions in stream order (offsets
 * strictly increasing), each with its created and archived events. Other updates (reassignments,
 * topology transactions, offset checkpoints) carry no reserve event here and are skipped; an event
 * kind other than created/archived is refused (the ACS-delta shape has no other).
 */
export function parseUpdatesTransactions(json: unknown, maxEntries = 100_000): LedgerStreamTransaction[] {
  if (!Array.isArray(json)) bad('body', 'an array of JsGetUpdatesResponse', json);
  if (json.length > maxEntries) bad('body', `at most ${maxEntries} entries`, json.length);
  const out: LedgerStreamTransaction[] = [];
  let last = -1;
  for (const [i, item] of json.entries()) {
    const o = readObject(item, `[${i}]`);
    if (o.update === undefined || o.update === null) continue;
    const u = readObject(o.update, `[${i}].update`);
    if (u.Transaction === undefined) continue;
    const path = `[${i}].update.Transaction.value`;
    const t = readObject(readObject(u.Transaction, `[${i}].update.Transaction`).value, path);
    const offset = parseLedgerOffset(t.offset, `${path}.offset`);
    if (offset <= last) bad(`${path}.offset`, `an offset after ${last} (stream order)`, offset);
    last = offset;
    const list = t.events;
    if (!Array.isArray(list) || list.length > 100_000) bad(`${path}.events`, 'an array of events', list);
    const events: LedgerStreamEvent[] = [];
    for (const [j, ev] of list.entries()) {
      const p = `${path}.events[${j}]`;
      const e = readObject(ev, p);
      if (e.CreatedEvent !== undefined) {
        const c = readObject(e.CreatedEvent, `${p}.CreatedEvent`);
        events.push({
          kind: 'created',
          ...readCreated(c, `${p}.CreatedEvent`),
          nodeId: parseLedgerOffset(c.nodeId, `${p}.CreatedEvent.nodeId`),
        });
      } else if (e.ArchivedEvent !== undefined) {
        const a = readObject(e.ArchivedEvent, `${p}.ArchivedEvent`);
        events.push({
          kind: 'archived',
          contractId: readString(a, 'contractId', `${p}.ArchivedEvent`, 1024),
          offset: parseLedgerOffset(a.offset, `${p}.ArchivedEvent.offset`),
          nodeId: parseLedgerOffset(a.nodeId, `${p}.ArchivedEvent.nodeId`),
          templateId: readString(a, 'templateId', `${p}.ArchivedEvent`, 1024),
        });
      } else bad(p, 'a CreatedEvent or an ArchivedEvent (ACS-delta shape)', Object.keys(e).join(','));
    }
    out.push({
      offset,
      updateId: readString(t, 'updateId', path, 1024),
      effectiveAtMs: parseLedgerTime(t.effectiveAt, `${path}.effectiveAt`),
      events,
    });
  }
  return out;
}

/** A `JsCantonError` body, or null when the body is not one. */
export function parseCantonError(json: unknown): LedgerCantonError | null {
  if (!isObj(json) || typeof json.code !== 'string') return null;
  return {
    code: json.code.slice(0, 200),
    cause: typeof json.cause === 'string' ? json.cause.slice(0, 500) : '',
  };
}
