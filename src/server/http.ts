/**
 * The HTTP vocabulary of the reference server (api-decisions §8): a route handler returns a `Reply`
 * (status + JSON value or pre-serialized bytes); a handler that rejects its input throws
 * `RequestRejectedError` (src/errors/server.ts), which the app turns into `{"error": "<message>"}`
 * with that code's status. Also: reading a request body with a byte limit (413), and the one JSON
 * serializer every response goes through.
 */
import type { IncomingMessage } from 'node:http';
import { RequestRejectedError } from '../errors/server.js';

/** What a handler returns: a JSON value, or bytes already serialized (cached responses). */
export interface Reply {
  readonly status: number;
  readonly body: Uint8Array;
  /** seconds for `Cache-Control: public, max-age=N`; absent = `no-store` */
  readonly maxAgeSeconds?: number;
  /** server-clock ms when a cached reply was computed: the app sends `Age` (RFC 9111 §5.1) from it */
  readonly computedAtMs?: number;
  /** `Content-Type` when the body is not JSON (the Ledger API's `400 text/plain`); JSON by default */
  readonly contentType?: string;
}

/** The `Age` header value of a reply computed at `computedAtMs`, served at `nowMs` (whole seconds, ≥ 0). */
export function formatAgeHeader(computedAtMs: number, nowMs: number): string {
  return String(Math.max(0, Math.floor((nowMs - computedAtMs) / 1000)));
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Serializes a response value. Keys keep insertion order; no whitespace (byte-stable). */
function encodeJson(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

export function jsonReply(status: number, value: unknown, maxAgeSeconds?: number): Reply {
  const body = encodeJson(value);
  return maxAgeSeconds === undefined ? { status, body } : { status, body, maxAgeSeconds };
}

export function errorBody(message: string): Uint8Array {
  return encodeJson({ error: message });
}

/** The request body limit (docs/protocol/api-decisions.md §4: a body over 64 KiB is answered 413). */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads the whole body, rejecting with `PAYLOAD_TOO_LARGE` (413) as soon as it passes `maxBytes` (by the
 * Content-Length header when present, else while streaming). Bytes are returned undecoded.
 */
export function readBody(req: IncomingMessage, maxBytes: number = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) {
      req.resume();
      reject(new RequestRejectedError('PAYLOAD_TOO_LARGE', 'request body too large'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        done = true;
        chunks.length = 0;
        reject(new RequestRejectedError('PAYLOAD_TOO_LARGE', 'request body too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (e) => {
      if (done) return;
      done = true;
      reject(new RequestRejectedError('REQUEST_INVALID', `could not read request body: ${e.message}`));
    });
    // the client went away before the end of its body: settle instead of waiting forever
    req.on('close', () => {
      if (done) return;
      done = true;
      reject(new RequestRejectedError('REQUEST_INVALID', 'request body incomplete'));
    });
  });
}

/**
 * Parses a body as a JSON object whatever its Content-Type (api-decisions §8: the live front end
 * sends text/plain). Anything that is not a JSON object: `400 invalid JSON body`.
 */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new RequestRejectedError('REQUEST_INVALID', 'invalid JSON body');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RequestRejectedError('REQUEST_INVALID', 'invalid JSON body');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RequestRejectedError('REQUEST_INVALID', 'invalid JSON body');
  }
  return value as Record<string, unknown>;
}
