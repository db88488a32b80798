/**
 * A Canton participant's JSON Ledger API v2 for the ledger-check tests: a real HTTP server on
 * 127.0.0.1:0 answering the reads the auditor makes (ledger-end, latest-pruned-offsets,
 * events-by-contract-id, active-contracts, updates) in the shapes of Canton's published
 * OpenAPI document — the 3.5 form (optional fields left out) or the 3.4 form (fields 3.4 marks
 * required always present) — from a list of contracts a test controls. Every answer is kept with
 * the schema it claims to be (`answers`), so a test validates them against the document. A bearer
 * token is required when one is set; `fault` makes the participant refuse, stall or vanish.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ParticipantContract {
  readonly contractId: string;
  readonly blob: string;
  /** RFC 3339 ledger time of the creation */
  readonly createdAt: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly signatories: readonly string[];
  readonly observers?: readonly string[];
  /** the archive: its offset and the archiving transaction's ledger time */
  readonly archived?: { readonly effectiveAt: string };
  /** unknown to the participant: no events, not in the active set (a contract the exchange forged) */
  readonly unknown?: boolean;
}

type ParticipantFault = 'unauthorized' | 'forbidden' | 'stall' | 'unavailable' | 'echo-token';

interface RecordedAnswer {
  readonly path: string;
  /** '#/components/schemas/X', or an array of X */
  readonly schema: { readonly ref: string; readonly array: boolean };
  readonly body: unknown;
  readonly authorization: string | undefined;
}

export interface FakeParticipant {
  readonly url: string;
  readonly answers: RecordedAnswer[];
  readonly requests: { path: string; authorization: string | undefined; body: string }[];
  set(o: {
    contracts?: readonly ParticipantContract[];
    prunedUpTo?: number;
    fault?: ParticipantFault | undefined;
  }): void;
  close(): Promise<void>;
}

const SYNC = 'global-domain::1220aaaa';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeParticipant(o: {
  token?: string | null;
  variant?: '3.4' | '3.5';
  party: string;
}): Promise<FakeParticipant> {
  const variant = o.variant ?? '3.5';
  let contracts: readonly ParticipantContract[] = [];
  let prunedUpTo = 0;
  let fault: ParticipantFault | undefined;
  const answers: RecordedAnswer[] = [];
  const requests: FakeParticipant['requests'] = [];
  // offsets: creations 1..n, archives n+1..2n, in list order
  const offsets = (): { created: Map<string, number>; archived: Map<string, number>; end: number } => {
    const created = new Map<string, number>();
    const archived = new Map<string, number>();
    contracts.forEach((c, i) => {
      created.set(c.contractId, i + 1);
      if (c.archived !== undefined) archived.set(c.contractId, contracts.length + i + 1);
    });
    return { created, archived, end: 2 * contracts.length + 1 };
  };
  const createdEvent = (
    c: ParticipantContract,
    offset: number,
    withBlob: boolean,
  ): Record<string, unknown> => ({
    offset,
    nodeId: 0,
    contractId: c.contractId,
    templateId: c.templateId,
    createArgument: { note: 'not read by the auditor' },
    ...(withBlob ? { createdEventBlob: c.blob } : variant === '3.4' ? { createdEventBlob: '' } : {}),
    ...(variant === '3.4' ? { interfaceViews: [] } : {}),
    witnessParties: [o.party],
    signatories: [...c.signatories],
    ...(variant === '3.4' || (c.observers?.length ?? 0) > 0 ? { observers: [...(c.observers ?? [])] } : {}),
    createdAt: c.createdAt,
    packageName: c.packageName,
    representativePackageId: c.templateId.split(':')[0] ?? 'pkg',
    acsDelta: true,
  });
  const cantonError = (code: string, cause: string, category: number): Record<string, unknown> => ({
    code,
    cause,
    context: { participant: 'participant1' },
    errorCategory: category,
    ...(variant === '3.4' ? { resources: [], correlationId: 'c0ffee', traceId: 'feed' } : {}),
  });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const authorization = req.headers.authorization;
      requests.push({ path, authorization, body });
      const send = (status: number, json: unknown, ref: string, array = false): void => {
        answers.push({ path, schema: { ref, array }, body: json, authorization });
        const text = JSON.stringify(json);
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      };
      if (fault === 'stall') return; // never answers: the client's timeout decides
      if (fault === 'unavailable') {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('participant is starting');
        return;
      }
      if (fault === 'unauthorized' || (o.token != null && authorization !== `Bearer ${o.token}`))
        return send(
          401,
          cantonError('UNAUTHENTICATED', 'The command is missing a (valid) JWT token', 3),
          '#/components/schemas/JsCantonError',
        );
      if (fault === 'echo-token')
        return send(
          403,
          cantonError('PERMISSION_DENIED', `token ${authorization ?? ''} may not read ${o.party}`, 7),
          '#/components/schemas/JsCantonError',
        );
      if (fault === 'forbidden')
        return send(
          403,
          cantonError('PERMISSION_DENIED', 'Claims do not authorize to read as the party', 7),
          '#/components/schemas/JsCantonError',
        );
      const off = offsets();
      const visible = contracts.filter((c) => c.unknown !== true);
      if (req.method === 'GET' && path === '/v2/state/ledger-end')
        return send(
          200,
          variant === '3.5' && off.end === 0 ? {} : { offset: off.end },
          '#/components/schemas/GetLedgerEndResponse',
        );
      if (req.method === 'GET' && path === '/v2/state/latest-pruned-offsets')
        return send(
          200,
          variant === '3.5' && prunedUpTo === 0
            ? {}
            : {
                participantPrunedUpToInclusive: prunedUpTo,
                allDivulgedContractsPrunedUpToInclusive: prunedUpTo,
              },
          '#/components/schemas/GetLatestPrunedOffsetsResponse',
        );
      const json = JSON.parse(body === '' ? '{}' : body) as Record<string, unknown>;
      if (req.method === 'POST' && path === '/v2/events/events-by-contract-id') {
        const c = visible.find((x) => x.contractId === json.contractId);
        if (c === undefined)
          return send(
            404,
            cantonError('CONTRACT_EVENTS_NOT_FOUND', 'Contract events not found, or not visible.', 11),
            '#/components/schemas/JsCantonError',
          );
        const archivedOffset = off.archived.get(c.contractId);
        return send(
          200,
          {
            created: {
              createdEvent: createdEvent(c, off.created.get(c.contractId) ?? 1, true),
              synchronizerId: SYNC,
            },
            ...(archivedOffset === undefined
              ? {}
              : {
                  archived: {
                    archivedEvent: {
                      offset: archivedOffset,
                      nodeId: 0,
                      contractId: c.contractId,
                      templateId: c.templateId,
                      witnessParties: [o.party],
                      packageName: c.packageName,
                      ...(variant === '3.4' ? { implementedInterfaces: [] } : {}),
                    },
                    synchronizerId: SYNC,
                  },
                }),
          },
          '#/components/schemas/JsGetEventsByContractIdResponse',
        );
      }
      if (req.method === 'POST' && path === '/v2/state/active-contracts') {
        const active = visible.filter((c) => c.archived === undefined);
        return send(
          200,
          active.map((c) => ({
            ...(variant === '3.4' ? { workflowId: '' } : {}),
            contractEntry: {
              JsActiveContract: {
                createdEvent: createdEvent(c, off.created.get(c.contractId) ?? 1, true),
                synchronizerId: SYNC,
                reassignmentCounter: 0,
              },
            },
          })),
          '#/components/schemas/JsGetActiveContractsResponse',
          true,
        );
      }
      if (req.method === 'POST' && path === '/v2/updates') {
        const begin = Number(json.beginExclusive);
        const end = json.endInclusive === undefined ? off.end : Number(json.endInclusive);
        const archivedIn = visible.filter((x) => {
          const a = off.archived.get(x.contractId);
          return a !== undefined && a > begin && a <= end;
        });
        return send(
          200,
          archivedIn.map((c) => {
            const offset = off.archived.get(c.contractId);
            return {
              update: {
                Transaction: {
                  value: {
                    updateId: `1220${'ab'.repeat(32)}`,
                    ...(variant === '3.4' ? { commandId: '', workflowId: '' } : {}),
                    effectiveAt: c.archived?.effectiveAt,
                    events: [
                      {
                        ArchivedEvent: {
                          offset,
                          nodeId: 0,
                          contractId: c.contractId,
                          templateId: c.templateId,
                          witnessParties: [o.party],
                          packageName: c.packageName,
                        },
                      },
                    ],
                    offset,
                    synchronizerId: SYNC,
                    recordTime: c.archived?.effectiveAt,
                  },
                },
              },
            };
          }),
          '#/components/schemas/JsGetUpdatesResponse',
          true,
        );
      }
      send(404, cantonError('NOT_FOUND', `no route ${path}`, 11), '#/components/schemas/JsCantonError');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    answers,
    requests,
    set(x) {
      if (x.contracts !== undefined) contracts = x.contracts;
      if (x.prunedUpTo !== undefined) prunedUpTo = x.prunedUpTo;
      if ('fault' in x) fault = x.fault;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
