/**
 * The error hierarchy (src/errors/): every domain class is a errors.ReserveAuditError that carries its
 * own name and its code, builds `message` as `<code>: <shortMessage>`, keeps `details` and `cause`,
 * and answers `instanceof` for itself and the base only; each `is*Error` guard answers exactly
 * `instanceof` of its class.
 */
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors/index.js';

/** One error of each class, with a code of its union. */
const samples: readonly errors.ReserveAuditError[] = [
  new errors.ReserveAuditError('ANY_CODE', 'base'),
  new errors.AmmError('AMM_INVALID_AMOUNT', '"amount" expected a decimal string, got "x"'),
  new errors.ApiShapeError('API_SHAPE_INVALID', 'data.pools expected an array, got 1'),
  new errors.AuditError('AUDIT_OPTION_INVALID', 'bad option'),
  new errors.CodecError('BLOB_TRUNCATED', 'blob ends inside a field'),
  new errors.DamlTypeError('TYPE_FILE_INVALID', 'not a type file'),
  new errors.DarError('DAR_ZIP_TRUNCATED', 'not a zip'),
  new errors.HashError('CONTRACT_ID_MALFORMED', 'not a contract id'),
  new errors.HttpError('HTTP_TIMEOUT', 'no answer in 10 ms'),
  new errors.InstallError('OPTIONAL_PACKAGE_MISSING', 'no such package'),
  new errors.LedgerReadError('LEDGER_RESPONSE_INVALID', 'the ledger did not answer'),
  new errors.ReplayError('REPLAY_NEEDS_SHARED_MIRROR', 'bad option'),
  new errors.ServerError('POOL_NOT_FOUND', 'no pool p1'),
  new errors.StoreError('STORE_OPEN_FAILED', 'cannot open'),
  new errors.UsageError('OPTION_INVALID', '"--timeout" expected an integer, got 0'),
  new errors.RequestRejectedError('NOT_FOUND', 'unknown ticker_id', { headers: { Allow: 'GET' } }),
  new errors.LedgerRequestRejectedError('PERMISSION_DENIED', 'not a reader'),
];

/** every class, in the samples' order (the first test holds the samples to the exported classes) */
const classes = samples.map(
  (e) => e.constructor as abstract new (...args: never[]) => errors.ReserveAuditError,
);

describe('the error hierarchy', () => {
  it('has one sample per exported error class', () => {
    const exported = Object.entries(errors)
      .filter(([name, v]) => typeof v === 'function' && /^[A-Z]\w*Error$/.test(name))
      .map(([name]) => name)
      .sort();
    expect(samples.map((e) => e.constructor.name).sort()).toEqual(exported);
  });

  it('names each error after its class and builds the message from code and shortMessage', () => {
    for (const e of samples) {
      expect(e.name).toBe(e.constructor.name);
      expect(e.message).toBe(`${e.code}: ${e.shortMessage}`);
      expect(e.details).toEqual({});
      expect(e.cause).toBeUndefined();
      expect(e).toBeInstanceOf(Error);
      expect(e).toBeInstanceOf(errors.ReserveAuditError);
      expect(String(e)).toBe(`${e.name}: ${e.code}: ${e.shortMessage}`);
    }
  });

  it('keeps details and cause', () => {
    const cause = new Error('underneath');
    const e = new errors.DarError('DAR_ZIP_TRUNCATED', 'not a zip', { details: { entry: 'a.dalf' }, cause });
    expect(e.details).toEqual({ entry: 'a.dalf' });
    expect(e.cause).toBe(cause);
    expect(Object.keys(e)).toEqual(['name', 'code', 'shortMessage', 'details']);
  });

  it('is an instance of its own class and of the base only', () => {
    for (const e of samples) {
      for (const C of classes) {
        const expected = C === errors.ReserveAuditError || e.constructor === C;
        expect([e.name, C.name, e instanceof C]).toEqual([e.name, C.name, expected]);
      }
    }
  });

  it('answers each guard exactly as instanceof of its class', () => {
    const guards = [
      [errors.isReserveAuditError, errors.ReserveAuditError],
      [errors.isAmmError, errors.AmmError],
      [errors.isCodecError, errors.CodecError],
      [errors.isDarError, errors.DarError],
      [errors.isUsageError, errors.UsageError],
    ] as const;
    const others: unknown[] = [
      new Error('plain'),
      null,
      undefined,
      'AMM_INVALID_AMOUNT',
      { code: 'DAR_ZIP_TRUNCATED' },
    ];
    for (const [guard, C] of guards) {
      for (const e of [...samples, ...others]) expect(guard(e)).toBe(e instanceof C);
    }
    expect(errors.isAmmError(samples[1])).toBe(true);
    expect(errors.isReserveAuditError(new Error('plain'))).toBe(false);
  });

  it('accepts only the codes of its own union (checked by the typecheck of the tests)', () => {
    // @ts-expect-error a errors.DarError carries a DarErrorCode, not an AMM code
    const wrong = new errors.DarError('AMM_INVALID_AMOUNT', 'x');
    expect(wrong.code).toBe('AMM_INVALID_AMOUNT');
    const code: errors.DarErrorCode = new errors.DarError('DAR_ZIP_TRUNCATED', 'x').code;
    expect(code).toBe('DAR_ZIP_TRUNCATED');
  });

  it('keeps the status and headers of the server rejections', () => {
    const rejected = samples.find((e) => e instanceof errors.RequestRejectedError);
    expect(rejected).toMatchObject({ status: 404, headers: { Allow: 'GET' } });
    const ledger = samples.find((e) => e instanceof errors.LedgerRequestRejectedError);
    expect(ledger).toMatchObject({ status: 403 });
  });
});
