/**
 * Bearer-token authentication of the reference server's Ledger API (docs/decisions/server.md
 * "Ledger API: users and read-as rights"), on `jose`: `Authorization: Bearer <JWT>`, HS256 under a
 * shared secret (`serve --ledger-token-secret`) or RS256 under a configured public key
 * (`--ledger-token-public-key`, PEM or JWK). A token verifies when its signature does, its `aud`
 * holds the server's audience, it has not expired (`exp` is required) and it names a user (`sub`).
 * The user's read-as parties are the token's `read_as` claim (signed, so vouched for by the key's
 * holder) together with the parties the server configures for that user (`--ledger-user`).
 * Every failure is the same `401 UNAUTHENTICATED`, and the token is never logged or echoed.
 */
import {
  type CryptoKey,
  importJWK,
  importSPKI,
  importX509,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  SignJWT,
} from 'jose';
import { isPartyId } from '../../core/codec/validate.js';
import { LedgerRequestRejectedError, ServerError } from '../../errors/server.js';

/** The audience the reference server expects by default (Canton's form for a participant's audience). */
export const DEFAULT_LEDGER_AUDIENCE = 'https://daml.com/jwt/aud/participant/reserve-audit-reference';

/** The claim carrying the user's read-as parties. */
const READ_AS_CLAIM = 'read_as';

/** How the Ledger API verifies a token, and the users it knows. */
export interface LedgerAuthOptions {
  /** the expected `aud` (default DEFAULT_LEDGER_AUDIENCE) */
  readonly audience?: string;
  /** the HS256 key (`--ledger-token-secret`) */
  readonly hs256Secret?: Uint8Array;
  /** the RS256 public key (`--ledger-token-public-key`, see parseLedgerPublicKey) */
  readonly rs256PublicKey?: CryptoKey;
  /** read-as parties per user (`--ledger-user NAME=PARTY,…`), added to those of the token */
  readonly users?: ReadonlyMap<string, readonly string[]>;
}

/** Who is asking: the token's user and every party it may read as. */
export interface LedgerCaller {
  readonly user: string;
  readonly readAs: ReadonlySet<string>;
}

const UNAUTHENTICATED_CAUSE = 'The command is missing a (valid) JWT token';

/** A bearer token has at most this many characters (a larger header is refused, not parsed). */
const MAX_TOKEN_CHARS = 16 * 1024;

/** Refuses options that would make the API unusable or unsafe (no key at all, a short secret). */
export function assertLedgerAuthOptions(o: LedgerAuthOptions): void {
  if (o.hs256Secret === undefined && o.rs256PublicKey === undefined) {
    throw new ServerError(
      'SERVER_OPTION_INVALID',
      '"ledgerApi.auth" expected an HS256 secret or an RS256 public key, got neither',
    );
  }
  if (o.hs256Secret !== undefined && o.hs256Secret.byteLength < 32) {
    throw new ServerError(
      'SERVER_OPTION_INVALID',
      `"ledgerApi.auth.hs256Secret" expected at least 32 bytes (RFC 7518 §3.2), got ${o.hs256Secret.byteLength}`,
    );
  }
  for (const [user, parties] of o.users ?? []) {
    const bad = parties.find((p) => !isPartyId(p));
    if (user === '' || bad !== undefined) {
      throw new ServerError(
        'SERVER_OPTION_INVALID',
        `"ledgerApi.auth.users" expected a user name and Daml party ids, got ${JSON.stringify(user)}=${JSON.stringify(bad ?? '')}`,
      );
    }
  }
}

/** Verifies the `Authorization` header; throws `401 UNAUTHENTICATED` when it does not verify. */
export async function verifyLedgerBearer(
  authorization: string | undefined,
  o: LedgerAuthOptions,
): Promise<LedgerCaller> {
  const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization ?? '')?.[1];
  if (token === undefined || token.length > MAX_TOKEN_CHARS) throw unauthenticated();
  const keyFor: JWTVerifyGetKey = (header) => {
    if (header.alg === 'HS256' && o.hs256Secret !== undefined) return o.hs256Secret;
    if (header.alg === 'RS256' && o.rs256PublicKey !== undefined) return o.rs256PublicKey;
    throw unauthenticated();
  };
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keyFor, {
      audience: o.audience ?? DEFAULT_LEDGER_AUDIENCE,
      algorithms: ['HS256', 'RS256'],
      requiredClaims: ['exp', 'sub'],
    }));
  } catch {
    throw unauthenticated();
  }
  const user = payload.sub;
  const claimed = payload[READ_AS_CLAIM] ?? [];
  if (
    typeof user !== 'string' ||
    user === '' ||
    !Array.isArray(claimed) ||
    !claimed.every((p): p is string => typeof p === 'string' && isPartyId(p))
  ) {
    throw unauthenticated();
  }
  return { user, readAs: new Set([...claimed, ...(o.users?.get(user) ?? [])]) };
}

function unauthenticated(): LedgerRequestRejectedError {
  return new LedgerRequestRejectedError('UNAUTHENTICATED', UNAUTHENTICATED_CAUSE);
}

export interface LedgerTokenInput {
  /** the HS256 key the server was started with */
  readonly secret: Uint8Array;
  readonly user: string;
  /** the parties the user reads as (`read_as`) */
  readonly readAs: readonly string[];
  /** lifetime in seconds */
  readonly expiresInSeconds: number;
  readonly audience?: string;
  /** issue time, ms since the epoch */
  readonly nowMs: number;
}

/** Signs an HS256 token for the reference server's Ledger API (`reserve-audit ledger-token`). */
export async function formatLedgerToken(x: LedgerTokenInput): Promise<string> {
  const iat = Math.floor(x.nowMs / 1000);
  return new SignJWT({ scope: 'daml_ledger_api', [READ_AS_CLAIM]: [...x.readAs] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(x.user)
    .setAudience(x.audience ?? DEFAULT_LEDGER_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + x.expiresInSeconds)
    .sign(x.secret);
}

/**
 * An RS256 public key from a file's text: PEM `PUBLIC KEY` (SPKI), a PEM certificate, or a JWK
 * (JSON). Throws SERVER_OPTION_INVALID otherwise.
 */
export async function parseLedgerPublicKey(text: string): Promise<CryptoKey> {
  const trimmed = text.trim();
  let key: CryptoKey | Uint8Array | undefined;
  try {
    if (trimmed.startsWith('-----BEGIN PUBLIC KEY-----')) key = await importSPKI(trimmed, 'RS256');
    else if (trimmed.startsWith('-----BEGIN CERTIFICATE-----')) key = await importX509(trimmed, 'RS256');
    else if (trimmed.startsWith('{'))
      key = await importJWK(JSON.parse(trimmed) as Record<string, unknown>, 'RS256');
  } catch (cause) {
    throw new ServerError('SERVER_OPTION_INVALID', '"ledger token public key" expected an RS256 public key', {
      cause,
    });
  }
  if (key === undefined || key instanceof Uint8Array || key.type !== 'public') {
    throw new ServerError(
      'SERVER_OPTION_INVALID',
      `"ledger token public key" expected an RS256 public key (PEM public key, PEM certificate or JWK), got ${key === undefined ? 'another format' : 'a key that is not public'}`,
    );
  }
  return key;
}
