/**
 * RequestRejectedError (src/errors/server.ts): the server's 4xx answers are part of the one
 * ReserveAuditError hierarchy, with a stable code per kind of rejection and one status per code;
 * the HTTP client's HttpError (src/errors/http.ts) is the only class of that name.
 */
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors/index.js';
import { isReserveAuditError, ReserveAuditError } from '../../src/errors/index.js';
import { REQUEST_STATUS, RequestRejectedError } from '../../src/errors/server.js';
import { parseJsonObject } from '../../src/server/http.js';

describe('RequestRejectedError', () => {
  it('is a ReserveAuditError whose shortMessage is the body text and whose status follows the code', () => {
    const e = new RequestRejectedError('NOT_FOUND', 'unknown ticker_id');
    expect(e).toBeInstanceOf(ReserveAuditError);
    expect(isReserveAuditError(e)).toBe(true);
    expect([e.name, e.code, e.status, e.shortMessage, e.message]).toEqual([
      'RequestRejectedError',
      'NOT_FOUND',
      404,
      'unknown ticker_id',
      'NOT_FOUND: unknown ticker_id',
    ]);
    expect(e.headers).toEqual({});
    const limited = new RequestRejectedError('RATE_LIMITED', 'rate limit exceeded', {
      headers: { 'Retry-After': '2' },
    });
    expect([limited.status, limited.headers]).toEqual([429, { 'Retry-After': '2' }]);
  });

  it('has one status per code, all of them 4xx', () => {
    expect(REQUEST_STATUS).toEqual({
      REQUEST_INVALID: 400,
      NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      CONFLICT: 409,
      PAYLOAD_TOO_LARGE: 413,
      EXPECTATION_FAILED: 417,
      RATE_LIMITED: 429,
    });
  });

  it('is what the server throws for bad input', () => {
    expect(() => parseJsonObject(new TextEncoder().encode('[1]'))).toThrow(
      expect.objectContaining({ code: 'REQUEST_INVALID', status: 400, shortMessage: 'invalid JSON body' }),
    );
  });

  it('leaves exactly one class named HttpError: the HTTP client error', () => {
    const named = Object.entries(errors).filter(
      ([, v]) => typeof v === 'function' && (v as { name?: string }).name === 'HttpError',
    );
    expect(named.map(([k]) => k)).toEqual(['HttpError']);
    expect(new errors.HttpError('HTTP_TIMEOUT', 'x')).toBeInstanceOf(ReserveAuditError);
  });
});
