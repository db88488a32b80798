/**
 * Helpers of the watch tests: a local webhook receiver (node:http, records every JSON body it is
 * posted, can answer with a chosen status first) and the JSON log lines of a spawned `watch`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  readonly url: string;
  /** the bodies received with a 2xx answer, in order */
  readonly bodies: Record<string, unknown>[];
  /** every POST received (answered or refused) */
  readonly attempts: () => number;
  close(): Promise<void>;
}

/** A webhook receiver; `failFirst` POSTs are answered 503 before it starts taking them. */
export async function startWebhookReceiver(o: { failFirst?: number } = {}): Promise<WebhookReceiver> {
  const bodies: Record<string, unknown>[] = [];
  let attempts = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      attempts++;
      if (attempts <= (o.failFirst ?? 0)) {
        res.writeHead(503).end();
        return;
      }
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/T000/B000/secret-path`,
    bodies,
    attempts: () => attempts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The JSON log lines printed so far (`--log-format json`), skipping a partial last line. */
export function parseJsonLog(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{') && l.endsWith('}'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The metrics URL a watch logged (`metrics-listening`), or null. */
export function findMetricsUrl(stdout: string): string | null {
  const e = parseJsonLog(stdout).find((x) => x.event === 'metrics-listening');
  return typeof e?.url === 'string' ? e.url.replace(/\/metrics$/, '') : null;
}
