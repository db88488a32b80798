/**
 * The follower's reader of the update stream (`parseUpdatesTransactions`, `mirror follow`): the
 * `JsGetUpdatesResponse[]` shapes of Canton's document, 3.5 (int64 as JSON numbers, an omitted or
 * empty blob) and the decimal-string int64s some participants send; updates that are not transactions
 * (offset checkpoints, reassignments) skipped; out-of-order offsets and event kinds the ACS-delta shape
 * does not have refused as shape errors, never read as events.
 */
import { describe, expect, it } from 'vitest';
import { parseUpdatesTransactions } from '../../../src/io/ledger-api/parse-ledger.js';

const created = (offset: number | string, nodeId: number, id: string, blob?: string) => ({
  CreatedEvent: {
    offset,
    nodeId,
    contractId: id,
    templateId: 'abc:Amm.Pool:PoolReserve',
    createArgument: {},
    ...(blob === undefined ? {} : { createdEventBlob: blob }),
    interfaceViews: [],
    witnessParties: ['auditor::1220aa'],
    signatories: ['operator::1220bb'],
    observers: ['auditor::1220aa'],
    createdAt: '2026-11-26T10:00:00.123456Z',
    packageName: 'amm-pools',
    acsDelta: true,
  },
});
const archived = (offset: number | string, nodeId: number, id: string) => ({
  ArchivedEvent: {
    offset,
    nodeId,
    contractId: id,
    templateId: 'abc:Amm.Pool:PoolReserve',
    witnessParties: ['auditor::1220aa'],
    packageName: 'amm-pools',
  },
});
const tx = (offset: number | string, events: unknown[]) => ({
  update: {
    Transaction: {
      value: {
        updateId: `u${offset}`,
        commandId: '',
        workflowId: '',
        effectiveAt: '2026-11-26T10:00:00.123456Z',
        events,
        offset,
        synchronizerId: 's::1220',
        recordTime: '2026-11-26T10:00:00.2Z',
      },
    },
  },
});

describe('parseUpdatesTransactions', () => {
  it('reads created and archived events in order; int64 as numbers or strings; an empty blob is none', () => {
    const r = parseUpdatesTransactions([
      tx(5, [archived(5, 0, '00aa'), created(5, 1, '00bb', 'AAEC')]),
      { update: { OffsetCheckpoint: { value: { offset: 6, synchronizerTimes: [] } } } },
      tx('7', [created('7', 0, '00cc', '')]),
    ]);
    expect(r.map((t) => t.offset)).toEqual([5, 7]);
    expect(r[0]!.events.map((e) => [e.kind, e.contractId, e.nodeId])).toEqual([
      ['archived', '00aa', 0],
      ['created', '00bb', 1],
    ]);
    expect(r[0]!.effectiveAtMs).toBe(Date.parse('2026-11-26T10:00:00.123Z'));
    const c = r[1]!.events[0]!;
    expect(c.kind === 'created' && c.createdEventBlob).toBe(null);
  });

  it.each([
    ['offsets out of stream order', [tx(7, []), tx(7, [])], /stream order/],
    [
      'an event kind the ACS-delta shape does not have',
      [tx(3, [{ ExercisedEvent: {} }])],
      /CreatedEvent or an ArchivedEvent/,
    ],
    ['a negative offset', [tx(-1, [])], /non-negative integer offset/],
    ['not an array', { update: {} }, /array of JsGetUpdatesResponse/],
    [
      'a created event without its contract ID',
      [tx(3, [{ CreatedEvent: { ...created(3, 0, 'x').CreatedEvent, contractId: '' } }])],
      /contractId/,
    ],
  ])('refuses %s', (_what, body, message) => {
    expect(() => parseUpdatesTransactions(body)).toThrow(message);
  });
});
