/**
 * The metrics endpoint of `watch` (docs/watch.md "Metrics"): a node:http server that answers
 * `GET /metrics` with the registry in the Prometheus text format, `GET /healthz` (200 while the
 * process runs) and `GET /readyz` (200 when `readiness()` says ready — the last snapshot is
 * recent — else 503 with the reason). Anything else is 404; a method other than GET/HEAD is 405.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { UsageError } from '../../errors/usage.js';

export interface MetricsServerOptions {
  readonly registry: Registry;
  readonly port: number;
  readonly host: string;
  readonly readiness: () => { readonly ready: boolean; readonly reason: string };
}

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9464 */
  readonly url: string;
  close(): Promise<void>;
}

function reply(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** Binds the metrics endpoint; rejects when the port cannot be bound. */
export async function startMetricsServer(o: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const text = (status: number, body: string): void =>
      reply(res, status, 'text/plain; charset=utf-8', body);
    if (req.method !== 'GET' && req.method !== 'HEAD') text(405, 'method not allowed\n');
    else if (path === '/metrics')
      o.registry.metrics().then(
        (body) => reply(res, 200, o.registry.contentType, body),
        (e: unknown) => text(500, `${e instanceof Error ? e.message : String(e)}\n`),
      );
    else if (path === '/healthz') text(200, 'ok\n');
    else if (path === '/readyz') {
      const r = o.readiness();
      text(r.ready ? 200 : 503, `${r.reason}\n`);
    } else text(404, 'not found: /metrics, /healthz, /readyz\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new UsageError(
          'OPTION_INVALID',
          `"--metrics-port" expected a port free to bind on ${o.host}, got ${o.port} (${e.code ?? e.message})`,
          { cause: e },
        ),
      ),
    );
    server.listen(o.port, o.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const a = server.address() as AddressInfo;
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return {
    url: `http://${host}:${a.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
