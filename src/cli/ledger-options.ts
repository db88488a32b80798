/**
 * The ledger options shared by `audit` and `snapshot` (issue 26; docs/cli.md "Ledger checks"):
 * `--ledger-api URL` (the participant's JSON API root, the part before `/v2`), `--ledger-party P`
 * (the party whose view is read: a stakeholder of the reserve contracts) and the bearer token from
 * `--ledger-token-file F` or the environment variable `RESERVE_AUDIT_LEDGER_TOKEN`. The token is
 * read, checked and passed on; no message, report or file ever shows it (an error names the file,
 * never its content).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RunAuditLedgerOptions } from '../run/audit.js';
import type { CliContext } from './command.js';
import { failOptionText, parseBaseUrlOption } from './options.js';

/** The environment variable a token may come from instead of --ledger-token-file. */
const LEDGER_TOKEN_ENV = 'RESERVE_AUDIT_LEDGER_TOKEN';

export const ledgerApiOption = {
  type: 'string',
  describe:
    "also check every served contract and the pools' completeness against a Canton participant's JSON Ledger API v2 at this URL (the part before /v2)",
} as const;
export const ledgerTokenFileOption = {
  type: 'string',
  describe: `a file holding the bearer token (JWT) of the ledger API (default $${LEDGER_TOKEN_ENV}); never printed`,
} as const;
export const ledgerPartyOption = {
  type: 'string',
  describe: 'the party whose view of the ledger is read (a stakeholder of the reserve contracts)',
} as const;

/** A token: one line of printable ASCII without spaces (a JWT's three base64url parts, or an opaque token). */
function assertTokenText(token: string, source: string): void {
  if (token === '' || token.length > 16_384 || !/^[\x21-\x7e]+$/.test(token))
    failOptionText(
      source,
      'a bearer token (one line of printable characters, at most 16 KiB)',
      `${token.length} characters that are not one`,
    );
}

/** The parsed ledger options, or null when --ledger-api is not given (then the others are refused). */
export async function parseLedgerOptions(
  args: {
    readonly 'ledger-api'?: string | undefined;
    readonly 'ledger-token-file'?: string | undefined;
    readonly 'ledger-party'?: string | undefined;
  },
  ctx: CliContext,
): Promise<RunAuditLedgerOptions | null> {
  const url = args['ledger-api'];
  if (url === undefined) {
    for (const name of ['ledger-party', 'ledger-token-file'] as const)
      if (args[name] !== undefined) failOptionText(name, 'to come with --ledger-api', 'no --ledger-api');
    return null;
  }
  const baseUrl = parseBaseUrlOption(url);
  const party = args['ledger-party'];
  if (party === undefined || party.trim() === '' || party.length > 512)
    failOptionText(
      'ledger-party',
      'a party ID (with --ledger-api)',
      party === undefined ? 'none' : JSON.stringify(party.slice(0, 40)),
    );
  let token: string | null = null;
  const file = args['ledger-token-file'];
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(resolve(ctx.cwd, file), 'utf8');
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      return failOptionText(
        'ledger-token-file',
        'a readable file',
        `${JSON.stringify(file)} (${typeof code === 'string' ? code : 'unreadable'})`,
      );
    }
    token = text.trim();
    assertTokenText(token, 'ledger-token-file');
  } else {
    const env = ctx.env[LEDGER_TOKEN_ENV];
    if (env !== undefined && env.trim() !== '') {
      token = env.trim();
      assertTokenText(token, LEDGER_TOKEN_ENV);
    }
  }
  return { baseUrl, token, party: party as string };
}
