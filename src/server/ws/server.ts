/**
 * The public websocket at /v1/ws/public (docs/protocol/api-decisions.md §7), on the `ws` package.
 *
 * - Control frames: subscribed / unsubscribed / error (text in both `error` and `message`) / ping /
 *   pong. A server `{"op":"ping"}` goes out every `pingIntervalMs` (30 s); a client that has left
 *   two pings in a row unanswered is disconnected at the next tick.
 * - Business frames `{channel, event_type, ts, data}`: one `snapshot` per channel right after a
 *   subscribe, then `update`s pushed from `ExchangeView.onChange` (coalesced per `updateDelayMs`).
 * - Limits: ≤ `maxChannels` (100) per connection, 64 KiB per incoming frame (`maxPayload`; bigger
 *   frames close the socket with 1009). The 64 KiB limit is for frames a client sends
 *   (api-decisions §10): a 500-bar candle snapshot is ~65 KiB and goes out whole; outgoing frames
 *   are bounded by `maxOutgoingFrameBytes` (1 MiB, oldest bars dropped past it), and a client
 *   whose send buffer passes `maxBufferedBytes` (8 MiB) is dropped.
 * - Abuse (docs/threat-model.md "Attacks on the server"): every upgrade, and every frame a client
 *   sends, takes a token from the app's rate limiter (`admit`: 429 for an upgrade; a frame over the
 *   limit is dropped, the first of a run answered with one `rate limit exceeded` error frame); at most
 *   `maxSocketsPerClient` open sockets per remote address (429 beyond), and none on a connection
 *   over the app's per-client connection cap (`overCap`); a re-subscribe to a channel already
 *   subscribed is confirmed without re-sending its snapshot, and a channel's snapshot goes to one
 *   socket at most once per `snapshotWindowMs` (60 s): unsubscribing and subscribing again within it
 *   is confirmed, and answered with an `update` only when the ledger changed meanwhile (the frames a
 *   subscribed socket would have received); a request naming unknown channels gets one error frame,
 *   not one per name, and error frames stop when they would pass the bytes the socket sent (+1 KiB):
 *   a client cannot make the server send much more than it sends, except each snapshot once.
 *   Each socket has a frame budget (`framesPerSecond` 20, `frameBurst` 60): past it the server
 *   stops reading the socket until the budget refills, so a flood of frames slows its sender down
 *   (TCP back-pressure) instead of the server.
 * - An upgrade request on any other path is an ordinary HTTP request (`fallback`, e.g.
 *   `curl --http2` asking for h2c): it is answered over HTTP/1.1 by the app's handler.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { requireOptionalPackage } from '../../io/optional-package.js';

/** WebSocket readyState values (the WHATWG WebSocket interface; ws uses the same numbers). */
const WS_OPEN = 1;
const WS_CLOSED = 3;

import { ServerError } from '../../errors/server.js';
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
  /** largest frame the server sends (default 1 MiB; a candle snapshot past it drops its oldest bars) */
  readonly maxOutgoingFrameBytes?: number;
  /** open sockets per remote address (default 32) */
  readonly maxSocketsPerClient?: number;
  /**
   * a channel's snapshot goes to one socket at most once within this many ms (default 60 000;
   * 0 = a snapshot on every fresh subscribe)
   */
  readonly snapshotWindowMs?: number;
  /**
   * frames a socket may send per second, sustained (default 20); past its burst the server stops
   * reading the socket until the budget refills (TCP back-pressure: nothing is dropped)
   */
  readonly framesPerSecond?: number;
  /** frames a socket may send at once before the sustained rate applies (default 60) */
  readonly frameBurst?: number;
}

/** Whether a client (remote address) may open one more connection now (the app's rate limiter). */
type AdmitUpgrade = (
  client: string,
) => { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Serves an upgrade request that is not a websocket handshake on `path` as plain HTTP. */
type UpgradeFallback = (server: Server, req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** What the app hands the socket server besides its options. */
export interface PublicSocketHooks {
  readonly admit?: AdmitUpgrade;
  readonly fallback?: UpgradeFallback;
  /** whether a connection is over the app's per-client connection cap (refused 429) */
  readonly overCap?: (socket: Socket) => boolean;
}

interface Subscription {
  readonly ref: ChannelRef;
  /** the client's own spelling, echoed in `channel` */
  spelling: string;
}

interface Client {
  readonly ws: WebSocket;
  /** remote address (the per-client socket cap) */
  readonly address: string;
  readonly subs: Map<string, Subscription>;
  missedPings: number;
  /** channel key → clock ms of the last snapshot this socket was sent (kept after an unsubscribe) */
  readonly snapshotAt: Map<string, number>;
  /** channel key → when it was unsubscribed (clock ms, the feed's version then), for a catch-up */
  readonly left: Map<string, { readonly atMs: number; readonly version: number }>;
  /** payload bytes of the frames the client sent, and of the error frames it was answered */
  bytesIn: number;
  errorBytesOut: number;
  /** the last frame was refused by the rate limit (the next refused ones go unanswered) */
  limited: boolean;
  /** the socket's frame budget (token bucket, refilled at framesPerSecond up to frameBurst) */
  frameTokens: number;
  frameTokensAtMs: number;
  /** reading is paused until the budget refills */
  paused: boolean;
}

/** Error frames a socket may receive beyond the bytes it sent. */
const ERROR_ALLOWANCE_BYTES = 1024;

export class PublicSocketServer {
  readonly #feed: MarketFeed;
  readonly #clock: SimClock;
  readonly #path: string;
  readonly #logger: Logger;
  readonly #pingIntervalMs: number;
  readonly #maxChannels: number;
  readonly #maxFrameBytes: number;
  readonly #maxBuffered: number;
  readonly #maxOutgoing: number;
  readonly #maxPerClient: number;
  readonly #updateDelayMs: number;
  readonly #snapshotWindowMs: number;
  readonly #framesPerMs: number;
  readonly #frameBurst: number;
  readonly #hooks: PublicSocketHooks;
  /** open (and opening) sockets per remote address */
  readonly #perAddress = new Map<string, number>();
  readonly #wss: WebSocketServer;
  readonly #clients = new Set<Client>();
  readonly #servers = new Map<Server, (req: IncomingMessage, socket: Duplex, head: Buffer) => void>();
  #pingTimer: NodeJS.Timeout | undefined;
  #flushTimer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  readonly #dirty = new DirtyMarkets();

  constructor(
    exchange: ExchangeView,
    clock: SimClock,
    path: string,
    opts: PublicSocketOptions,
    logger: Logger,
    hooks: PublicSocketHooks = {},
  ) {
    this.#hooks = hooks;
    this.#feed = new MarketFeed(exchange, clock);
    this.#clock = clock;
    this.#path = path;
    this.#logger = logger;
    this.#pingIntervalMs = opts.pingIntervalMs ?? 30_000;
    this.#maxChannels = opts.maxChannels ?? 100;
    this.#maxFrameBytes = opts.maxFrameBytes ?? 64 * 1024;
    this.#maxBuffered = opts.maxBufferedBytes ?? 8 * 1024 * 1024;
    this.#maxOutgoing = opts.maxOutgoingFrameBytes ?? 1024 * 1024;
    this.#maxPerClient = opts.maxSocketsPerClient ?? 32;
    this.#updateDelayMs = opts.updateDelayMs ?? 100;
    this.#snapshotWindowMs = opts.snapshotWindowMs ?? 60_000;
    this.#framesPerMs = (opts.framesPerSecond ?? 20) / 1000;
    this.#frameBurst = opts.frameBurst ?? 60;
    if (!(this.#framesPerMs > 0 && Number.isFinite(this.#framesPerMs) && this.#frameBurst >= 1)) {
      throw new ServerError(
        'SERVER_OPTION_INVALID',
        `"framesPerSecond" and "frameBurst" expected a positive rate and a burst ≥ 1, got ${opts.framesPerSecond} and ${opts.frameBurst}`,
      );
    }
    const { WebSocketServer: Wss } = requireOptionalPackage<{ WebSocketServer: typeof WebSocketServer }>(
      'ws',
      "the server's websocket feed",
    );
    this.#wss = new Wss({
      noServer: true,
      maxPayload: this.#maxFrameBytes,
      perMessageDeflate: false,
    });
    this.#unsubscribe = exchange.onChange((c) => this.#onChange(c));
  }

  attach(server: Server): void {
    if (this.#servers.has(server)) return;
    const listener = (req: IncomingMessage, socket: Duplex, head: Buffer): void =>
      this.#upgrade(server, req, socket, head);
    server.on('upgrade', listener);
    this.#servers.set(server, listener);
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
    for (const [s, listener] of this.#servers) s.off('upgrade', listener);
    this.#servers.clear();
    for (const c of this.#clients) c.ws.close(1001, 'server shutting down');
    const pending = [...this.#clients].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.ws.readyState === WS_CLOSED) return resolve();
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

  #upgrade(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const websocket = (req.headers.upgrade ?? '').trim().toLowerCase() === 'websocket';
    if (path !== this.#path || !websocket) {
      if (this.#hooks.fallback !== undefined) this.#hooks.fallback(server, req, socket, head);
      else refuseUpgrade(socket, 404, 'not found');
      return;
    }
    const address = req.socket.remoteAddress ?? 'unknown';
    if (this.#hooks.overCap?.(req.socket) === true) {
      refuseUpgrade(socket, 429, 'too many connections from this client address');
      return;
    }
    const admitted = this.#hooks.admit?.(address) ?? { allowed: true };
    if (!admitted.allowed) {
      refuseUpgrade(socket, 429, 'rate limit exceeded', {
        'Retry-After': String(admitted.retryAfterSeconds),
      });
      return;
    }
    const open = this.#perAddress.get(address) ?? 0;
    if (open >= this.#maxPerClient) {
      refuseUpgrade(
        socket,
        429,
        `too many websocket connections: at most ${this.#maxPerClient} per client address`,
      );
      return;
    }
    this.#perAddress.set(address, open + 1);
    let counted = true;
    const release = (): void => {
      if (!counted) return;
      counted = false;
      const n = (this.#perAddress.get(address) ?? 1) - 1;
      if (n <= 0) this.#perAddress.delete(address);
      else this.#perAddress.set(address, n);
    };
    // a handshake that fails (bad key, closed socket) never reaches #connect: release on close
    socket.once('close', release);
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connect(ws, address));
  }

  /** open sockets of one remote address (tests) */
  socketsOf(address: string): number {
    return this.#perAddress.get(address) ?? 0;
  }

  #connect(ws: WebSocket, address: string): void {
    const client: Client = {
      ws,
      address,
      subs: new Map(),
      missedPings: 0,
      snapshotAt: new Map(),
      left: new Map(),
      bytesIn: 0,
      errorBytesOut: 0,
      limited: false,
      frameTokens: this.#frameBurst,
      frameTokensAtMs: performance.now(),
      paused: false,
    };
    this.#clients.add(client);
    this.#ensurePingTimer();
    ws.on('message', (data: RawData, isBinary: boolean) => this.#onMessage(client, data, isBinary));
    ws.on('pong', () => {
      client.missedPings = 0;
    });
    ws.on('close', () => {
      this.#clients.delete(client);
    });
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
      // two pings unanswered, or a send buffer over the budget (a client that does not read)
      if (c.missedPings >= 2 || c.ws.bufferedAmount > this.#maxBuffered) {
        c.ws.terminate();
        this.#clients.delete(c);
        continue;
      }
      c.missedPings += 1;
      this.#send(c, { op: 'ping' });
    }
  }

  /** An error frame, unless error frames already outweigh what the client sent (then dropped). */
  #error(c: Client, message: string): void {
    const text = JSON.stringify({ op: 'error', error: message, message });
    const size = Buffer.byteLength(text);
    if (c.errorBytesOut + size > c.bytesIn + ERROR_ALLOWANCE_BYTES) return;
    c.errorBytesOut += size;
    this.#sendText(c, text);
  }

  /**
   * Takes one frame from the socket's budget; when it runs out, stops reading the socket until it
   * refills (frames ws already read are still handled: at most one read's worth).
   */
  #throttle(c: Client): void {
    const now = performance.now();
    c.frameTokens = Math.min(this.#frameBurst, c.frameTokens + (now - c.frameTokensAtMs) * this.#framesPerMs);
    c.frameTokensAtMs = now;
    c.frameTokens -= 1;
    if (c.frameTokens >= 0 || c.paused) return;
    c.paused = true;
    c.ws.pause();
    const t = setTimeout(
      () => {
        c.paused = false;
        if (c.ws.readyState === WS_OPEN) c.ws.resume();
      },
      Math.ceil((1 - c.frameTokens) / this.#framesPerMs),
    );
    t.unref();
  }

  #onMessage(c: Client, data: RawData, isBinary: boolean): void {
    this.#throttle(c);
    c.bytesIn += Buffer.isBuffer(data)
      ? data.length
      : Array.isArray(data)
        ? data.reduce((n, b) => n + b.length, 0)
        : data.byteLength;
    if (this.#hooks.admit !== undefined) {
      const d = this.#hooks.admit(c.address);
      if (!d.allowed) {
        if (!c.limited) this.#error(c, 'rate limit exceeded');
        c.limited = true;
        return;
      }
      c.limited = false;
    }
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

  /**
   * Subscribes: one error frame for all unknown names of the request, then one `subscribed` with
   * the accepted channels (already subscribed ones included, in their new spelling), then a
   * snapshot for each channel that is new on this connection — a re-subscribe is not answered
   * with a snapshot the client already has (its updates keep coming).
   */
  #subscribe(c: Client, names: readonly string[]): void {
    const { all, candle } = this.#feed.marketSets();
    const accepted: Subscription[] = [];
    const fresh: Subscription[] = [];
    const unknown: string[] = [];
    let full = false;
    for (const name of names) {
      const ref = parseChannel(name, all, candle, this.#feed.periods);
      if (ref === null) {
        unknown.push(name);
        continue;
      }
      const existing = c.subs.get(ref.key);
      if (existing !== undefined) {
        existing.spelling = name;
        if (!accepted.includes(existing)) accepted.push(existing);
        continue;
      }
      if (c.subs.size >= this.#maxChannels) {
        full = true;
        break;
      }
      const sub: Subscription = { ref, spelling: name };
      c.subs.set(ref.key, sub);
      accepted.push(sub);
      fresh.push(sub);
    }
    if (unknown.length > 0) this.#error(c, formatNamesError('unknown channel', 'unknown channels', unknown));
    if (full) this.#error(c, `too many channels: at most ${this.#maxChannels} per connection`);
    if (accepted.length === 0) return;
    this.#send(c, { op: 'subscribed', channels: accepted.map((s) => s.spelling) });
    const now = this.#clock.nowMs();
    this.#feed.batch(() => {
      for (const s of fresh) {
        const key = s.ref.key;
        const last = c.snapshotAt.get(key);
        const left = c.left.get(key);
        c.left.delete(key);
        if (last !== undefined && now - last < this.#snapshotWindowMs && now >= last) {
          // the socket had this snapshot moments ago: catch it up only if the ledger moved
          if (left !== undefined && left.version !== this.#feed.version) {
            const data = this.#feed.update(s.ref, left.atMs);
            if (data !== null) this.#sendBusiness(c, s, 'update', data);
          }
          continue;
        }
        c.snapshotAt.set(key, now);
        this.#sendBusiness(c, s, 'snapshot', this.#feed.snapshot(s.ref));
      }
    });
    this.#pruneRecent(c, now);
  }

  /** Forgets snapshot times older than the window once the maps grow (bounded per socket). */
  #pruneRecent(c: Client, now: number): void {
    if (c.snapshotAt.size <= 4 * this.#maxChannels) return;
    for (const [k, at] of c.snapshotAt) {
      if (now - at >= this.#snapshotWindowMs && !c.subs.has(k)) {
        c.snapshotAt.delete(k);
        c.left.delete(k);
      }
    }
  }

  #unsubscribeChannels(c: Client, names: readonly string[]): void {
    const { all, candle } = this.#feed.marketSets();
    const removed: string[] = [];
    const missing: string[] = [];
    for (const name of names) {
      const ref = parseChannel(name, all, candle, this.#feed.periods);
      if (ref === null || !c.subs.delete(ref.key)) {
        missing.push(name);
        continue;
      }
      c.left.set(ref.key, { atMs: this.#clock.nowMs(), version: this.#feed.version });
      removed.push(name);
    }
    if (missing.length > 0) this.#error(c, formatNamesError('not subscribed', 'not subscribed', missing));
    if (removed.length > 0) this.#send(c, { op: 'unsubscribed', channels: removed });
  }

  #sendBusiness(
    c: Client,
    s: Subscription,
    eventType: 'snapshot' | 'update',
    data: Record<string, unknown>,
  ): void {
    const frame = { channel: s.spelling, event_type: eventType, ts: this.#clock.nowMs(), data };
    this.#sendText(c, formatBusinessFrame(frame, this.#maxOutgoing));
  }

  #send(c: Client, value: unknown): void {
    this.#sendText(c, JSON.stringify(value));
  }

  #sendText(c: Client, text: string): void {
    if (c.ws.readyState !== WS_OPEN) return;
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

/**
 * One error text for the names of one request: `unknown channel: <name>` for one, else
 * `unknown channels (N): <first>, <second>, <third>, …` — a bounded message whatever N.
 */
function formatNamesError(one: string, many: string, names: readonly string[]): string {
  if (names.length === 1) return `${one}: ${clip(names[0] ?? '')}`;
  const shown = names.slice(0, 3).map((n) => clip(n, 60));
  return `${many} (${names.length}): ${shown.join(', ')}${names.length > 3 ? ', …' : ''}`;
}

/** Answers an upgrade request that is not accepted with a JSON error and closes the socket. */
function refuseUpgrade(
  socket: Duplex,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ error: message });
  const reason = status === 429 ? 'Too Many Requests' : status === 404 ? 'Not Found' : 'Bad Request';
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
