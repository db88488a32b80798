/**
 * Requests that never reach the route handler as ordinary requests (api-decisions §8: bad input is
 * a 4xx `{"error": …}`, never an empty or non-JSON answer):
 *
 * - `answerClientError`: node:http's 'clientError' — requests its parser rejects (bad method
 *   token, bad header bytes, `Content-Length: -1`, Content-Length with Transfer-Encoding, a bad
 *   chunk, headers too large, a request timeout). Answered with the matching 4xx and a JSON body
 *   while nothing of a response has gone out on the socket, then the socket is closed.
 * - `answerConnect`: node:http's 'connect' — a `CONNECT` request (this is not a proxy). Without a
 *   listener node closes the socket without a word; answered `400 CONNECT is not supported`, closed.
 * - `serveUpgradeAsHttp`: a request carrying `Upgrade` (e.g. `curl --http2` asking for h2c) that
 *   is not a websocket handshake on the websocket path. Node hands such requests to the 'upgrade'
 *   event, not to the request handler; this rebuilds the request without its upgrade headers and
 *   gives the socket back to the HTTP server, which answers it over HTTP/1.1 like any request.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Parser error code → status and message (llhttp codes, as node:http reports them). */
const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'request headers too large'],
  HPE_INVALID_METHOD: [400, 'invalid request method'],
  HPE_INVALID_URL: [400, 'invalid request target'],
  HPE_INVALID_VERSION: [400, 'invalid HTTP version'],
  HPE_INVALID_HEADER_TOKEN: [400, 'invalid header'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'invalid Content-Length'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'Content-Length together with Transfer-Encoding'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'invalid Transfer-Encoding (chunked only, never with Content-Length)'],
  HPE_INVALID_CHUNK_SIZE: [400, 'invalid chunk'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [400, 'invalid chunk'],
  HPE_STRICT: [400, 'malformed request'],
  HPE_LF_EXPECTED: [400, 'malformed request'],
  HPE_CR_EXPECTED: [400, 'malformed request'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request timeout'],
};

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
};

/** The status and message answering a parser error code (400 `malformed request` by default). */
function computeClientErrorAnswer(code: string | undefined): readonly [number, string] {
  return (code !== undefined ? CLIENT_ERRORS[code] : undefined) ?? [400, 'malformed request'];
}

/** The raw HTTP/1.1 bytes of a JSON error answer that closes the connection. */
export function formatRawErrorResponse(status: number, message: string): string {
  const body = JSON.stringify({ error: message });
  return (
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Access-Control-Allow-Origin: *\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** The 'clientError' listener: a JSON 4xx when the socket still allows it, then close. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || socket.destroyed) {
    socket.destroy();
    return;
  }
  // a response already under way on this socket (e.g. a bad chunk in a body being read) cannot
  // be replaced: only close
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && (current == null || !current.headersSent)) {
    const [status, message] = computeClientErrorAnswer(err.code);
    socket.end(formatRawErrorResponse(status, message));
    // the client may still be sending (headers too large): give the answer a moment, then close
    setTimeout(() => socket.destroy(), 1000).unref();
    return;
  }
  socket.destroy();
}

/** The 'connect' listener: `CONNECT` is answered with a JSON 400 and the connection closed. */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  if (socket.destroyed) return;
  socket.on('error', () => socket.destroy());
  socket.end(formatRawErrorResponse(400, 'CONNECT is not supported'));
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** Hop-by-hop headers of an upgrade request that are dropped when it is served as plain HTTP. */
const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);

/**
 * Hands an upgrade request back to `server` as the same request without `Upgrade`, its
 * `Connection` tokens and `HTTP2-Settings`; the bytes of a body already read (`head`) follow
 * the rebuilt head, the rest is still on the socket.
 */
export function serveUpgradeAsHttp(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const value = raw[i + 1] ?? '';
    const lower = name.toLowerCase();
    if (UPGRADE_HEADERS.has(lower)) continue;
    if (lower === 'connection') {
      const kept = value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '' && !UPGRADE_HEADERS.has(t.toLowerCase()));
      if (kept.length > 0) lines.push(`${name}: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${value}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}
