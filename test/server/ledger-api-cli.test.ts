/**
 * The Ledger API from the command line, as docs/server.md walks through it: `serve --ledger-api
 * --ledger-token-secret S --auditor-party P` spawned on a free port, a token from
 * `reserve-audit ledger-token --secret S --user U --party P`, and a read of the contract `/pools/proof`
 * serves (the same blob, the auditor a witness). Then the options' rules, in-process, exit code 2,
 * and the secret never in a message.
 */
import { describe, expect, it } from 'vitest';
import { verifyLedgerBearer } from '../../src/server/ledger-api/auth.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { getJson, postJson, spawnSourceCli } from './helpers/start.js';

const SECRET = 'walkthrough-secret-of-at-least-32-bytes';
const AUDITOR = 'auditor::1220cafe';

describe('serve --ledger-api with ledger-token', () => {
  it('serves the Ledger API; a minted token reads the served contract as the auditor', async () => {
    const child = spawnSourceCli([
      'serve',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--seed',
      'ledger-cli',
      '--ledger-api',
      '--ledger-token-secret',
      SECRET,
      '--auditor-party',
      AUDITOR,
    ]);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 20_000;
      while (!/ledger API (http:\/\/127\.0\.0\.1:\d+)\/v2/.test(stderr)) {
        if (Date.now() > deadline) throw new Error(`no listening line: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const origin = /ledger API (http:\/\/127\.0\.0\.1:\d+)\/v2/.exec(stderr)?.[1] as string;
      expect(stderr).toContain(`observer ${AUDITOR}`);
      expect(stderr).not.toContain(SECRET);

      const minted = await runCliForTest([
        'ledger-token',
        '--secret',
        SECRET,
        '--user',
        'auditor-user',
        '--party',
        AUDITOR,
        '--expires',
        '10m',
      ]);
      expect(minted.code).toBe(0);
      const token = minted.stdout.trim();
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      const auth = { Authorization: `Bearer ${token}` };

      const end = await getJson(`${origin}/v2/state/ledger-end`, { headers: auth });
      expect(end.status).toBe(200);
      expect((end.body as { offset: number }).offset).toBeGreaterThan(0);

      const proof = (await getJson(`${origin}/v1/public/pools/proof`)).body as {
        data: { pools: { reserve_contract: { contract_id: string; created_event_blob: string } }[] };
      };
      const rc = proof.data.pools[0]!.reserve_contract;
      const filter = {
        cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }],
      };
      const ev = await postJson(
        `${origin}/v2/events/events-by-contract-id`,
        { contractId: rc.contract_id, eventFormat: { filtersByParty: { [AUDITOR]: filter } } },
        auth,
      );
      expect(ev.status).toBe(200);
      const created = (
        ev.body as { created: { createdEvent: { createdEventBlob: string; witnessParties: string[] } } }
      ).created.createdEvent;
      expect(created.createdEventBlob).toBe(rc.created_event_blob);
      expect(created.witnessParties).toEqual([AUDITOR]);

      const none = await getJson(`${origin}/v2/state/ledger-end`);
      expect(none.status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 40_000);

  it('ledger-token prints a token the server verifies, with the user and its parties', async () => {
    const r = await runCliForTest(
      ['ledger-token', '--user', 'u1', '--party', AUDITOR, '--party', 'other::1220'],
      {
        env: { RESERVE_AUDIT_LEDGER_TOKEN_SECRET: SECRET },
      },
    );
    expect(r.code).toBe(0);
    const caller = await verifyLedgerBearer(`Bearer ${r.stdout.trim()}`, {
      hs256Secret: new TextEncoder().encode(SECRET),
    });
    expect(caller.user).toBe('u1');
    expect([...caller.readAs]).toEqual([AUDITOR, 'other::1220']);
  });

  it.each([
    [['ledger-token', '--user', 'u', '--party', AUDITOR], /"--secret" expected the server's HS256 secret/],
    [
      ['ledger-token', '--secret', 'short', '--user', 'u', '--party', AUDITOR],
      /at least 32 bytes.*got 5 bytes/,
    ],
    [
      ['ledger-token', '--secret', SECRET, '--user', 'u', '--party', 'bad party!'],
      /"--party" expected a Daml party id/,
    ],
    [
      ['ledger-token', '--secret', SECRET, '--user', 'u', '--party', AUDITOR, '--expires', 'soon'],
      /"--expires" expected a duration/,
    ],
    [['ledger-token', '--secret', SECRET, '--user', '', '--party', AUDITOR], /"--user" expected a user name/],
    [['serve', '--ledger-api'], /"--ledger-api" expected --ledger-token-secret/],
    [['serve', '--ledger-token-secret', SECRET], /"--ledger-token-secret" expected --ledger-api as well/],
    [['serve', '--ledger-api', '--ledger-token-secret', 'short'], /at least 32 bytes/],
    [
      ['serve', '--ledger-api', '--ledger-token-public-key', '/nonexistent/key.pem'],
      /"--ledger-token-public-key" expected a readable file/,
    ],
    [
      ['serve', '--ledger-api', '--ledger-token-secret', SECRET, '--ledger-user', 'nobody'],
      /"--ledger-user" expected NAME=PARTY/,
    ],
    [['serve', '--auditor-party', 'not a party!'], /"--auditor-party" expected a Daml party id/],
  ])('%j exits 2', async (argv, message) => {
    const r = await runCliForTest(argv, { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stdout).toBe('');
  });
});
