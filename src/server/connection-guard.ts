/**
 * Back-pressure on HTTP connections (docs/server.md "Limits and abuse"; docs/threat-model.md
 * "Attacks on the server"):
 *
 * - **per-client connection cap**: at most `maxPerClient` open connections per remote address
 *   (websocket connections included). A connection over the cap is never read: it is answered
 *   `429 too many connections` at once and closed (a client that had already sent a request may
 *   see a reset instead).
 * - **pipelining without reading**: a request queued behind an unfinished response (HTTP/1.1
 *   pipelining) is not computed until its turn comes (node:http assigns the socket to its response
 *   once the previous response has been handed to the kernel, i.e. as the client reads); a connection
 *   with more than `maxPipelined` requests unanswered is closed, and one whose answers have not moved
 *   for `stallTimeoutMs` (the client stopped reading) is closed too. Node itself stops reading a
 *   socket whose output buffer is full, so these bound what one chunk of pipelined requests can hold.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ServerError } from '../errors/server.js';
import { formatRawErrorResponse } from './raw-requests.js';

export interface ConnectionLimitOptions {
  /** open connections per client address, websockets included (default 64) */
  readonly maxPerClient?: number;
  /** requests waiting for their answer on one connection (pipelined) before it is closed (default 64) */
  readonly maxPipelined?: number;
  /** ms an unfinished answer may sit unread before the connection is closed (default 30 000) */
  readonly stallTimeoutMs?: number;
}

interface SocketState {
  readonly address: string;
  readonly overCap: boolean;
  /** requests received and not yet answered (finished or closed) */
  pending: number;
  stall: NodeJS.Timeout | undefined;
  /** how many times node attached a parser to the socket (an upgrade served as HTTP: twice) */
  generation: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** The gates put in front of node's parser (told apart from node's own 'data' listener). */
const GATES = new WeakSet<(chunk: Buffer) => void>();

/** The number of blank lines ending a request head in `chunk`, counted up to `limit` + 1. */
function countRequestHeads(chunk: Buffer, limit: number): number {
  let n = 0;
  for (let i = chunk.indexOf(HEAD_END); i !== -1 && n <= limit; i = chunk.indexOf(HEAD_END, i + 4)) n += 1;
  return n;
}

/** How long a connection over the cap has to read its 429 before it is closed. */
const OVER_CAP_GRACE_MS = 1_000;

export class ConnectionGuard {
  readonly #maxPerClient: number;
  readonly #maxPipelined: number;
  readonly #stallMs: number;
  readonly #open = new Map<string, number>();
  readonly #state = new WeakMap<Socket, SocketState>();

  constructor(opts: ConnectionLimitOptions = {}) {
    for (const [name, v] of Object.entries(opts)) {
      if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 1)) {
        throw new ServerError('SERVER_OPTION_INVALID', `"${name}" expected an integer ≥ 1, got ${String(v)}`);
      }
    }
    this.#maxPerClient = opts.maxPerClient ?? 64;
    this.#maxPipelined = opts.maxPipelined ?? 64;
    this.#stallMs = opts.stallTimeoutMs ?? 30_000;
  }

  get maxPerClient(): number {
    return this.#maxPerClient;
  }

  /** open connections of one remote address (tests) */
  connectionsOf(address: string): number {
    return this.#open.get(address) ?? 0;
  }

  /** The server's 'connection' listener: counts the socket (once, even when re-emitted). */
  readonly onConnection = (socket: Socket): void => {
    const known = this.#state.get(socket);
    if (known !== undefined) {
      // handed back to the server (an upgrade request served as HTTP): node made a new parser
      known.generation += 1;
      this.#gateReads(socket, known);
      return;
    }
    const address = socket.remoteAddress ?? 'unknown';
    const open = (this.#open.get(address) ?? 0) + 1;
    this.#open.set(address, open);
    const state: SocketState = {
      address,
      overCap: open > this.#maxPerClient,
      pending: 0,
      stall: undefined,
      generation: 0,
    };
    this.#state.set(socket, state);
    socket.once('close', () => {
      if (state.stall !== undefined) clearTimeout(state.stall);
      const n = (this.#open.get(address) ?? 1) - 1;
      if (n <= 0) this.#open.delete(address);
      else this.#open.set(address, n);
    });
    this.#gateReads(socket, state);
    if (state.overCap) {
      // not one byte of it is parsed: stop reading, answer, close
      socket.pause();
      socket.on('error', () => socket.destroy());
      socket.end(
        formatRawErrorResponse(429, `too many connections: at most ${this.#maxPerClient} per client address`),
      );
      setTimeout(() => socket.destroy(), OVER_CAP_GRACE_MS).unref();
    }
  };

  /**
   * Puts a check in front of node's parser: a chunk read from the socket that holds more request
   * heads than the connection may still have waiting is not parsed — the connection is closed.
   * (Node parses a whole chunk at once, building a request for each pipelined request in it:
   * ~1,300 in 64 KiB, ~1 s of CPU for 64 such connections, before any limit in a handler can act.)
   * The check is a byte search for the blank line ending a request head; a body holding blank
   * lines counts them too, which only matters past `maxPipelined` of them.
   */
  #gateReads(socket: Socket, state: SocketState): void {
    const parser = (socket as Socket & { parser?: unknown }).parser;
    const generation = state.generation;
    const nodeOnData = (socket.listeners('data') as ((chunk: Buffer) => void)[]).find((l) => !GATES.has(l));
    if (parser == null || nodeOnData === undefined) return;
    socket.removeListener('data', nodeOnData);
    const gate = (chunk: Buffer): void => {
      // after an upgrade (websocket) or a hand-over the parser is gone or another one (node reuses
      // parser objects, hence the generation): not ours to feed
      if ((socket as Socket & { parser?: unknown }).parser !== parser || state.generation !== generation) {
        socket.removeListener('data', gate);
        return;
      }
      // a connection over the cap: nothing it sends is parsed
      if (state.overCap) return;
      const room = this.#maxPipelined - state.pending;
      if (countRequestHeads(chunk, room) > room) {
        socket.destroy();
        return;
      }
      nodeOnData(chunk);
    };
    GATES.add(gate);
    // adding a 'data' listener makes node feed its parser from 'data' events (no longer directly
    // from the handle), through the gate
    socket.on('data', gate);
  }

  /** Whether the connection of `req` is over its address's cap (answer 429 and close). */
  isOverCap(socket: Socket): boolean {
    return this.#state.get(socket)?.overCap === true;
  }

  /**
   * Runs `answer` when `res` has its turn on the connection (at once unless pipelined behind an
   * unfinished response); closes a connection pipelining past the limit instead.
   */
  schedule(req: IncomingMessage, res: ServerResponse, answer: () => void): void {
    const socket = req.socket;
    // the rest of a chunk of pipelined requests parsed after the connection was closed: nothing to do
    if (socket.destroyed) return;
    const state = this.#state.get(socket);
    if (state === undefined) {
      answer();
      return;
    }
    state.pending += 1;
    let counted = true;
    const done = (): void => {
      if (!counted) return;
      counted = false;
      state.pending -= 1;
      this.#armStall(socket, state);
    };
    res.once('finish', done);
    res.once('close', done);
    if (state.pending > this.#maxPipelined) {
      // (node still builds a request for each of the pipelined requests of the chunk it read,
      // ~1,300 per 64 KiB: they find the socket destroyed and cost nothing more)
      socket.destroy();
      return;
    }
    this.#armStall(socket, state);
    if (res.socket !== null) answer();
    else res.once('socket', answer);
  }

  /** (Re)starts the stall timer while answers are pending: no progress for stallMs → close. */
  #armStall(socket: Socket, state: SocketState): void {
    if (state.stall !== undefined) clearTimeout(state.stall);
    state.stall = undefined;
    if (state.pending === 0 || socket.destroyed) return;
    state.stall = setTimeout(() => socket.destroy(), this.#stallMs);
    state.stall.unref();
  }
}
