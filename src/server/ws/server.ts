/**
 * The public websocket at /v1/ws/public (api-decisions §7), on the `ws` package.
 *
 * - Control frames: subscribed / unsubscribed / error (text in both `error` and `message`) / ping /
 *   pong. A server `{"op":"ping"}` goes out every `pingIntervalMs` (30 s); a client that has left
 *   two pings in a row unanswered is disconnected at the next tick.
 * - Business frames `{channel, event_type, ts, data}`: one `snapshot` per channel right after a
 *   subscribe, then `update`s pushed from `ExchangeView.onChange` (coalesced per `updateDelayMs`).
 * - Limits: ≤ `maxChannels` (100) per connection, 64 KiB per incoming frame (`maxPayload`; bigger
 *   frames close the socket with 1009), outgoing frames trimmed to fit 64 KiB (oldest candle bars
 *   dropped), and a client whose send buffer passes `maxBufferedBytes` is dropped.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { SimClock } from '../../sim/clock.js';
import type { ExchangeChange, ExchangeView } from '../../sim/exchange.js';
import type { Logger } from '../deps.js';
import { DirtyMarkets } from './dirty-markets.js';
import { MarketFeed } from './feed.js';
import { type ChannelRef, clip, formatBusinessFrame, parseChannel, parseClientFrame } from './protocol.js';

export interface PublicSocketOptions {
  readonly pingIntervalMs?: number;
  readonly maxChannels?: number;
  readonly maxFrameBytes?: number;
  readonly maxBufferedBytes?: number;
  /** delay used to coalesce ledger changes into one update per channel */
  readonly updateDelayMs?: number;
}

interface Subscription {
  readonly ref: ChannelRef;
  /** the client's own spelling, echoed in `channel` */
  spelling: string;
}

interface Client {
  readonly ws: WebSocket;
  readonly subs: Map<string, Subscription>;
  missedPings: number;
}

export class PublicSocketServer {
  readonly #feed: MarketFeed;
  readonly #clock: SimClock;
  readonly #path: string;
  readonly #logger: Logger;
  readonly #pingIntervalMs: number;
  readonly #maxChannels: number;
  readonly #maxFrameBytes: number;
  readonly #maxBuffered: number;
  readonly #updateDelayMs: number;
  readonly #wss: WebSocketServer;
  readonly #clients = new Set<Client>();
  readonly #servers: Server[] = [];
  #pingTimer: NodeJS.Timeout | undefined;
  #flushTimer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  readonly #dirty = new DirtyMarkets();
  readonly #onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void =>
    this.#upgrade(req, socket, head);

  constructor(
    exchange: ExchangeView,
    clock: SimClock,
    path: string,
    opts: PublicSocketOptions,
    logger: Logger,
  ) {
    this.#feed = new MarketFeed(exchange, clock);
    this.#clock = clock;
    this.#path = path;
    this.#logger = logger;
    this.#pingIntervalMs = opts.pingIntervalMs ?? 30_000;
    this.#maxChannels = opts.maxChannels ?? 100;
    this.#maxFrameBytes = opts.maxFrameBytes ?? 64 * 1024;
    this.#maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024;
    this.#updateDelayMs = opts.updateDelayMs ?? 100;
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.#maxFrameBytes,
      perMessageDeflate: false,
    });
    this.#unsubscribe = exchange.onChange((c) => this.#onChange(c));
  }

  attach(server: Server): void {
    server.on('upgrade', this.#onUpgrade);
    this.#servers.push(server);
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  close(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#pingTimer !== undefined) clearInterval(this.#pingTimer);
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    this.#pingTimer = undefined;
    this.#flushTimer = undefined;
    for (const s of this.#servers) s.off('upgrade', this.#onUpgrade);
    for (const c of this.#clients) c.ws.close(1001, 'server shutting down');
    const pending = [...this.#clients].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.ws.readyState === WebSocket.CLOSED) return resolve();
          const t = setTimeout(() => {
            c.ws.terminate();
            resolve();
          }, 1000);
          c.ws.once('close', () => {
            clearTimeout(t);
            resolve();
          });
        }),
    );
    return Promise.all(pending).then(
      () =>
        new Promise<void>((resolve) => {
          this.#wss.close(() => resolve());
        }),
    );
  }

  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path !== this.#path) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connect(ws));
  }

  #connect(ws: WebSocket): void {
    const client: Client = { ws, subs: new Map(), missedPings: 0 };
    this.#clients.add(client);
    this.#ensurePingTimer();
    ws.on('message', (data: RawData, isBinary: boolean) => this.#onMessage(client, data, isBinary));
    ws.on('pong', () => {
      client.missedPings = 0;
    });
    ws.on('close', () => this.#clients.delete(client));
    ws.on('error', (e) => {
      this.#logger.info(`websocket error: ${e.message}`);
      this.#clients.delete(client);
    });
  }

  #ensurePingTimer(): void {
    if (this.#pingTimer !== undefined) return;
    this.#pingTimer = setInterval(() => this.#pingAll(), this.#pingIntervalMs);
    this.#pingTimer.unref();
  }

  #pingAll(): void {
    for (const c of this.#clients) {
      if (c.missedPings >= 2) {
        c.ws.terminate();
        this.#clients.delete(c);
        continue;
      }
      c.missedPings += 1;
      this.#send(c, { op: 'ping' });
    }
  }

  #error(c: Client, message: string): void {
    this.#send(c, { op: 'error', error: message, message });
  }

  #onMessage(c: Client, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.#error(c, 'binary frames are not supported; send JSON text frames');
      return;
    }
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Buffer.concat(data as Buffer[]).toString('utf8');
    const parsed = parseClientFrame(text);
    if (!parsed.ok) {
      this.#error(c, parsed.error);
      return;
    }
    const f = parsed.frame;
    switch (f.op) {
      case 'ping':
        this.#send(c, { op: 'pong' });
        return;
      case 'pong':
        c.missedPings = 0;
        return;
      case 'subscribe':
        this.#subscribe(c, f.channels);
        return;
      case 'unsubscribe':
        this.#unsubscribeChannels(c, f.channels);
        return;
    }
  }

  #subscribe(c: Client, names: readonly string[]): void {
    const { all, candle } = this.#feed.marketSets();
    const accepted: Subscription[] = [];
    for (const name of names) {
      const ref = parseChannel(name, all, candle, this.#feed.periods);
      if (ref === null) {
        this.#error(c, `unknown channel: ${clip(name)}`);
        continue;
      }
      const existing = c.subs.get(ref.key);
      if (existing !== undefined) {
        existing.spelling = name;
        if (!accepted.includes(existing)) accepted.push(existing);
        continue;
      }
      if (c.subs.size >= this.#maxChannels) {
        this.#error(c, `too many channels: at most ${this.#maxChannels} per connection`);
        break;
      }
      const sub: Subscription = { ref, spelling: name };
      c.subs.set(ref.key, sub);
      accepted.push(sub);
    }
    if (accepted.length === 0) return;
    this.#send(c, { op: 'subscribed', channels: accepted.map((s) => s.spelling) });
    this.#feed.batch(() => {
      for (const s of accepted) this.#sendBusiness(c, s, 'snapshot', this.#feed.snapshot(s.ref));
    });
  }

  #unsubscribeChannels(c: Client, names: readonly string[]): void {
    const { all, candle } = this.#feed.marketSets();
    const removed: string[] = [];
    for (const name of names) {
      const ref = parseChannel(name, all, candle, this.#feed.periods);
      if (ref === null || !c.subs.delete(ref.key)) {
        this.#error(c, `not subscribed: ${clip(name)}`);
        continue;
      }
      removed.push(name);
    }
    if (removed.length > 0) this.#send(c, { op: 'unsubscribed', channels: removed });
  }

  #sendBusiness(
    c: Client,
    s: Subscription,
    eventType: 'snapshot' | 'update',
    data: Record<string, unknown>,
  ): void {
    const frame = { channel: s.spelling, event_type: eventType, ts: this.#clock.nowMs(), data };
    this.#sendText(c, formatBusinessFrame(frame, this.#maxFrameBytes));
  }

  #send(c: Client, value: unknown): void {
    this.#sendText(c, JSON.stringify(value));
  }

  #sendText(c: Client, text: string): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (c.ws.bufferedAmount > this.#maxBuffered) {
      this.#logger.info('websocket: dropping a slow consumer');
      c.ws.terminate();
      this.#clients.delete(c);
      return;
    }
    c.ws.send(text);
  }

  #onChange(change: ExchangeChange): void {
    this.#feed.noteChange();
    try {
      this.#dirty.add(change, this.#feed);
    } catch (e) {
      this.#logger.error('websocket: could not process a ledger change', e);
    }
    if (this.#flushTimer === undefined && this.#dirty.size > 0) {
      this.#flushTimer = setTimeout(() => {
        this.#flushTimer = undefined;
        this.#flush();
      }, this.#updateDelayMs);
      this.#flushTimer.unref();
    }
  }

  /** Pushes one update per subscribed channel of each changed market; data shared across clients. */
  #flush(): void {
    const dirty = this.#dirty.take();
    if (this.#clients.size === 0) return;
    const computed = new Map<string, Record<string, unknown> | null>();
    try {
      this.#feed.batch(() => this.#pushUpdates(dirty, computed));
    } catch (e) {
      this.#logger.error('websocket: could not push updates', e);
    }
  }

  #pushUpdates(
    dirty: ReadonlyMap<string, number>,
    computed: Map<string, Record<string, unknown> | null>,
  ): void {
    for (const c of this.#clients) {
      for (const s of c.subs.values()) {
        const since = dirty.get(s.ref.symbol);
        if (since === undefined) continue;
        if (s.ref.kind === 'candles' && since === Number.POSITIVE_INFINITY) continue;
        let data = computed.get(s.ref.key);
        if (data === undefined) {
          data = this.#feed.update(s.ref, since);
          computed.set(s.ref.key, data);
        }
        if (data !== null) this.#sendBusiness(c, s, 'update', data);
      }
    }
  }
}
