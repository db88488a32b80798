/**
 * Maps what undici, node:net and node:zlib throw into a typed HttpError (src/errors/http.ts).
 * No raw library error escapes the client; the original is kept as `cause`.
 */
import { HttpError, type HttpErrorCode } from '../../errors/http.js';

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function codeOf(e: unknown): string {
  if (typeof e !== 'object' || e === null) return '';
  const c = (e as { code?: unknown }).code;
  return typeof c === 'string' ? c : '';
}

/** Phase: 'connect' = before any response byte; 'body' = while reading the body. */
export function mapTransportError(e: unknown, url: string, phase: 'connect' | 'body'): HttpError {
  if (e instanceof HttpError) return e;
  const code = codeOf(e);
  const inner = codeOf((e as { cause?: unknown } | null)?.cause);
  const msg = e instanceof Error ? e.message : String(e);
  let out: HttpErrorCode;
  let text: string;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    out = 'HTTP_TIMEOUT';
    text = `${url} did not accept a connection in time`;
  } else if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    out = 'HTTP_TIMEOUT';
    text = `${url} did not send response headers in time`;
  } else if (code === 'UND_ERR_BODY_TIMEOUT') {
    out = 'HTTP_TIMEOUT';
    text = `${url} stopped sending the response body`;
  } else if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    out = 'HTTP_TRUNCATED';
    text = `${url} sent a body shorter or longer than its Content-Length`;
  } else if (code.startsWith('Z_') || code === 'ERR_ZLIB_INITIALIZATION_FAILED') {
    out = 'HTTP_TRUNCATED';
    text = `${url} sent a corrupt or truncated compressed body (${code})`;
  } else if (
    phase === 'body' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'ECONNRESET' ||
    code === 'UND_ERR_ABORTED'
  ) {
    out = phase === 'body' ? 'HTTP_TRUNCATED' : 'HTTP_CONNECT_FAILED';
    text =
      phase === 'body'
        ? `${url} closed the connection before the whole body arrived`
        : `${url} closed the connection`;
  } else if (CONNECT_CODES.has(code) || CONNECT_CODES.has(inner) || code.startsWith('UND_ERR')) {
    out = 'HTTP_CONNECT_FAILED';
    text = `could not connect to ${url} (${code || inner || 'error'})`;
  } else {
    out = 'HTTP_CONNECT_FAILED';
    text = `request to ${url} failed (${code || 'error'})`;
  }
  // never echo the library message if it might carry the raw URL with credentials
  return new HttpError(out, text, {
    cause: e,
    details: { url, libraryCode: code || inner, libraryMessage: msg.replace(/\/\/[^/@\s]*@/g, '//') },
  });
}
