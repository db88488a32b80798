/**
 * A fault-injecting HTTP proxy in front of an exchange (the reference server or any other): it
 * forwards every request to `target` unchanged and, for the share of requests its plan says
 * (src/server/fault-spec.ts), answers instead as a rate-limiting gateway (429 + Retry-After), a
 * failing backend (500, 502/503 with an HTML body), a dropped connection, a truncated body, or a
 * late answer. It is how the auditor's claim "a failed request is never evidence" is tested
 * (`npm run soak -- --faults`) and how a user can try an audit against an unreliable network
 * (`serve --faults`). A test instrument, not a gateway: plain HTTP, request bodies up to 1 MiB,
 * answers buffered whole; websocket handshakes are tunnelled to the target unchanged (no faults,
 * not counted).
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ServerError } from '../errors/server.js';
import { type Fault, type FaultKind, type FaultRule, pickFault } from './fault-spec.js';

export interface FaultRequest {
  readonly method: string;
  /** path and query, as received */
  readonly path: string;
  /** 0-based count of requests received so far */
  readonly index: number;
}

export interface FaultProxyOptions {
  /** the exchange's origin, e.g. http://127.0.0.1:8080 (no path: paths are forwarded as they come) */
  readonly target: string;
  /** default 0 (any free port) */
  readonly port?: number;
  /** default 127.0.0.1 */
  readonly host?: string;
  /** random faults by share (parseFaultSpec) … */
  readonly rules?: readonly FaultRule[];
  /** … drawn with this source, one draw per request (default Math.random) */
  readonly random?: () => number;
  /** or a deterministic plan: the fault for one request, null to forward it (wins over rules) */
  readonly choose?: (r: FaultRequest) => Fault | null;
}

interface FaultProxyStats {
  /** HTTP requests received (websocket handshakes not counted) */
  readonly requests: number;
  /** faults injected, by kind */
  readonly faults: Readonly<Partial<Record<FaultKind, number>>>;
  /** requests the target itself did not answer (the proxy answered 502): not injected */
  readonly upstreamErrors: number;
}

export interface FaultProxy {
  /** e.g. http://127.0.0.1:41234 — the target's paths work below it */
  readonly url: string;
  stats(): FaultProxyStats;
  /** stops listening; open sockets, tunnels and held-back answers are dropped */
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);
const MAX_REQUEST_BODY = 1024 * 1024;

function gatewayPage(status: number): string {
  const text = status === 502 ? 'Bad Gateway' : 'Service Temporarily Unavailable';
  return `<html><head><title>${status} ${text}</title></head><body><h1>${status} ${text}</h1></body></html>\n`;
}

/** The end-to-end headers: hop-by-hop ones and those the `Connection` header names are left out. */
function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== ''),
  );
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined && !HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  return out;
}

/** A whole answer of the proxy's own, with its length. */
function sendOwn(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

type Body = Buffer | 'too-large' | 'aborted';

function readRequestBody(req: IncomingMessage): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_REQUEST_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_REQUEST_BODY ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', () => resolve('aborted'));
  });
}

/** Starts the proxy; `close()` stops it. Throws ServerError SERVER_OPTION_INVALID for a bad target. */
export async function startFaultProxy(o: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(URL.canParse(o.target) ? o.target : 'invalid:');
  if (target.protocol !== 'http:' || target.pathname !== '/' || target.search !== '' || target.hash !== '')
    throw new ServerError(
      'SERVER_OPTION_INVALID',
      `"target" expected an http:// origin without a path, got ${JSON.stringify(o.target)}`,
    );
  const targetHost = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const targetPort = Number(target.port === '' ? 80 : target.port);
  const random = o.random ?? Math.random;
  const rules = o.rules ?? [];
  const choose = o.choose ?? ((): Fault | null => (rules.length === 0 ? null : pickFault(rules, random())));
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const faults: Partial<Record<FaultKind, number>> = {};
  let requests = 0;
  let upstreamErrors = 0;
  const timers = new Set<NodeJS.Timeout>();
  const tunnels = new Set<Duplex>();

  function later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    fault: Fault | null,
    retry: boolean,
  ): void {
    const headers = endToEnd(req.headers);
    headers.host = target.host;
    // the body was read whole: it goes out with a length (a chunked request arrives de-chunked)
    if (body.length > 0 || req.headers['content-length'] !== undefined)
      headers['content-length'] = String(body.length);
    else delete headers['content-length'];
    const up = httpRequest(
      { host: targetHost, port: targetPort, method: req.method, path: req.url, headers, agent },
      (upRes) => {
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => chunks.push(c));
        upRes.on('error', () => res.destroy());
        upRes.on('end', () => {
          const all = Buffer.concat(chunks);
          const out = endToEnd(upRes.headers);
          // a HEAD answer keeps the length of the body it describes
          if (req.method !== 'HEAD') out['content-length'] = String(all.length);
          const send = (): void => {
            if (res.destroyed) return;
            res.writeHead(upRes.statusCode ?? 502, out);
            if (fault?.kind === 'truncate') {
              // headers and the first half of the body, then the close: the client sees fewer bytes
              // than Content-Length announced (written first, so the close cannot overtake them)
              res.write(all.subarray(0, Math.floor(all.length / 2)), () => res.destroy());
            } else res.end(all);
          };
          if (fault?.kind === 'delay') later(fault.param, send);
          else send();
        });
      },
    );
    up.on('error', (e: NodeJS.ErrnoException) => {
      // the target closed an idle kept-alive socket just as it was reused: a race of the proxy, not a
      // fault of the target — try once more on a fresh socket
      if (!retry && up.reusedSocket && e.code === 'ECONNRESET') {
        forward(req, res, body, fault, true);
        return;
      }
      upstreamErrors++;
      if (res.destroyed) return;
      if (!res.headersSent) sendOwn(res, 502, 'text/html', gatewayPage(502));
      else res.destroy();
    });
    up.end(body);
  }

  function answer(req: IncomingMessage, res: ServerResponse, body: Body, index: number): void {
    if (body === 'aborted' || res.destroyed) return;
    if (body === 'too-large') {
      sendOwn(res, 413, 'application/json', '{"error":"request body too large"}', { connection: 'close' });
      return;
    }
    const fault = choose({ method: req.method ?? 'GET', path: req.url ?? '/', index });
    if (fault !== null) faults[fault.kind] = (faults[fault.kind] ?? 0) + 1;
    switch (fault?.kind) {
      case '429':
        sendOwn(res, 429, 'application/json', '{"error":"rate limit exceeded"}', {
          'retry-after': String(fault.param),
        });
        return;
      case '500':
        sendOwn(res, 500, 'application/json', '{"error":"internal server error"}');
        return;
      case '502':
      case '503':
        sendOwn(res, Number(fault.kind), 'text/html', gatewayPage(Number(fault.kind)));
        return;
      case 'reset':
        req.socket.destroy();
        return;
      default:
        forward(req, res, body, fault, false);
    }
  }

  const server: Server = createServer((req, res) => {
    const index = requests++;
    void readRequestBody(req).then((body) => answer(req, res, body, index));
  });

  // websocket handshakes: a byte tunnel to the target (the request head rewritten for its host)
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const up: Socket = connect({ host: targetHost, port: targetPort });
    tunnels.add(socket);
    tunnels.add(up);
    const drop = (): void => {
      socket.destroy();
      up.destroy();
      tunnels.delete(socket);
      tunnels.delete(up);
    };
    up.on('error', drop);
    socket.on('error', drop);
    up.on('close', drop);
    socket.on('close', drop);
    up.on('connect', () => {
      let raw = `${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}\r\n`;
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] ?? '';
        raw += `${name}: ${name.toLowerCase() === 'host' ? target.host : (req.rawHeaders[i + 1] ?? '')}\r\n`;
      }
      up.write(`${raw}\r\n`);
      if (head.length > 0) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
  });

  const listenPort = o.port ?? 0;
  const listenHost = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    const fail = (e: NodeJS.ErrnoException): void => {
      agent.destroy();
      reject(
        new ServerError(
          'SERVER_OPTION_INVALID',
          `"port" expected a port free to bind on ${listenHost}, got ${listenPort} (${e.code ?? e.message})`,
          { cause: e },
        ),
      );
    };
    server.once('error', fail);
    server.listen(listenPort, listenHost, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${addr.port}`,
    stats: () => ({ requests, faults: { ...faults }, upstreamErrors }),
    close: () => {
      closing ??= (async () => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const s of tunnels) s.destroy();
        tunnels.clear();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        agent.destroy();
      })();
      return closing;
    },
  };
}
