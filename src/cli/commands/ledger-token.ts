/**
 * `reserve-audit ledger-token --secret S --user U --party P [--expires 1h]` — prints a JWT for the
 * reference server's Ledger API (`serve --ledger-api --ledger-token-secret S`): HS256 under the
 * secret, `sub` = the user, `aud` = the server's audience (`--audience`, default the server's),
 * `exp` = now + `--expires`, and the user's read-as parties in the `read_as` claim
 * (docs/decisions/server.md "Ledger API: users and read-as rights"). The token goes to stdout and
 * nowhere else; the secret may come from RESERVE_AUDIT_LEDGER_TOKEN_SECRET instead of `--secret`.
 */
import { DEFAULT_LEDGER_AUDIENCE, formatLedgerToken } from '../../server/ledger-api/auth.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import {
  LEDGER_SECRET_ENV,
  parseLedgerSecret,
  parsePartyOption,
  TOKEN_LIFETIME,
} from '../ledger-token-options.js';
import { failOptionText, parseDurationOption } from '../options.js';
import { COMMAND_CATALOG } from './catalog.js';

export const ledgerTokenCommand = defineCommand({
  ...COMMAND_CATALOG['ledger-token'],
  builder: (y) =>
    y
      .option('secret', {
        type: 'string',
        describe: `the server's --ledger-token-secret (or ${LEDGER_SECRET_ENV})`,
      })
      .option('user', { type: 'string', demandOption: true, describe: 'the Ledger API user (sub)' })
      .option('party', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'a party the user reads as (repeatable)',
      })
      .option('expires', { type: 'string', default: '1h', describe: 'lifetime, e.g. 30m, 1h, 7d' })
      .option('audience', {
        type: 'string',
        default: DEFAULT_LEDGER_AUDIENCE,
        describe: "the server's --ledger-token-audience",
      }),
  run: async (args, ctx) => {
    const secret = parseLedgerSecret('secret', args.secret, ctx.env);
    if (secret === undefined)
      return failOptionText('secret', `the server's HS256 secret (or ${LEDGER_SECRET_ENV})`, 'neither');
    if (args.user.trim() === '') failOptionText('user', 'a user name', '""');
    const parties = args.party.map((p) => parsePartyOption('party', p));
    const lifetimeMs = parseDurationOption('expires', args.expires, TOKEN_LIFETIME);
    const token = await formatLedgerToken({
      secret,
      user: args.user,
      readAs: parties,
      expiresInSeconds: Math.max(1, Math.floor(lifetimeMs / 1000)),
      audience: args.audience,
      nowMs: Date.now(),
    });
    ctx.stdout.write(`${token}\n`);
    return EXIT_OK;
  },
});
