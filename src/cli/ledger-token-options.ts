/**
 * The command-line options of the reference server's Ledger API tokens (docs/cli.md `serve`,
 * `ledger-token`; docs/decisions/server.md "Ledger API"): the HS256 secret (an option, or the
 * environment variable RESERVE_AUDIT_LEDGER_TOKEN_SECRET so it stays out of the process list), a
 * token's lifetime, a party, and `--ledger-user NAME=PARTY,…`. A secret is never echoed in an
 * error message.
 */
import { isPartyId } from '../core/codec/validate.js';
import { formatGot } from '../errors/base.js';
import { type DurationRule, failOptionText } from './options.js';

/** The environment variable that may hold the HS256 secret instead of the option. */
export const LEDGER_SECRET_ENV = 'RESERVE_AUDIT_LEDGER_TOKEN_SECRET';

/** RFC 7518 §3.2: an HS256 key has at least 256 bits. */
const MIN_SECRET_BYTES = 32;

/** ledger-token --expires: 30s to 365d (a bare number is seconds). */
export const TOKEN_LIFETIME: DurationRule = {
  bareUnit: 's',
  minMs: 1_000,
  maxMs: 365 * 86_400_000,
  example: '1h, 30m or 7d',
  bounds: 'of 1s to 365d',
};

/**
 * The HS256 secret from `--<name>` or the environment, as bytes; undefined when neither is set.
 * Too short: a usage error that gives the length, never the value.
 */
export function parseLedgerSecret(
  name: string,
  value: string | undefined,
  env: NodeJS.ProcessEnv,
): Uint8Array | undefined {
  const text = value ?? env[LEDGER_SECRET_ENV];
  if (text === undefined) return undefined;
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength < MIN_SECRET_BYTES) {
    failOptionText(
      name,
      `a secret of at least ${MIN_SECRET_BYTES} bytes (HS256, RFC 7518 §3.2)`,
      `${bytes.byteLength} bytes`,
    );
  }
  return bytes;
}

/** A Daml party id (`--party`, `--auditor-party`). */
export function parsePartyOption(name: string, value: unknown): string {
  if (typeof value !== 'string' || !isPartyId(value))
    failOptionText(name, 'a Daml party id (1-255 of A-Z a-z 0-9 : _ - space)', formatGot(value));
  return value;
}

/** `--ledger-user NAME=PARTY[,PARTY…]` (repeatable) → the read-as parties per user. */
export function parseLedgerUsers(values: readonly string[]): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const v of values) {
    const eq = v.indexOf('=');
    const user = eq <= 0 ? '' : v.slice(0, eq);
    const parties = eq <= 0 ? [] : v.slice(eq + 1).split(',');
    if (user === '' || parties.length === 0 || !parties.every(isPartyId))
      failOptionText('ledger-user', 'NAME=PARTY[,PARTY…] with Daml party ids', formatGot(v));
    users.set(user, [...(users.get(user) ?? []), ...parties]);
  }
  return users;
}
