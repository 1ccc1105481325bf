/**
 * The page's paths and its one WebSocket. Inside Discord every request goes through Discord's
 * proxy under `/.proxy/`; outside it the same paths hang off the page's own folder. The socket
 * says hello with the bot's session, and after a drop it comes back by itself and asks again for
 * the table it showed: the server's state is always the truth, never the page's. When the bot no
 * longer knows the session (it restarted, or the session expired) the page signs in again by
 * itself, the way it signed in first, and comes back to the same table.
 */
import type { ClientMessage, Lang, ServerMessage } from "./protocol";

export function apiBase(inDiscord: boolean): string {
  if (inDiscord) {
    return "/.proxy/";
  }
  const path = window.location.pathname;
  return path.endsWith("/") ? path : path.slice(0, path.lastIndexOf("/") + 1);
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function getJson<T>(base: string, path: string): Promise<T> {
  return answer<T>(await fetch(base + path, { headers: { Accept: "application/json" } }));
}

export async function postJson<T>(base: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  return answer<T>(response);
}

async function answer<T>(response: Response): Promise<T> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = body as { error?: string; message?: string } | null;
    throw new ApiError(error?.error ?? String(response.status), error?.message ?? response.statusText);
  }
  return body as T;
}

export interface Hello {
  session: string;
  tableId: number | null;
  lang: Lang | null;
}

export interface Handlers {
  message(message: ServerMessage): void;
  connected(): void;
  dropped(): void;
  /** A fresh session, signed in again as at first; null when none can be had. */
  signInAgain?(): Promise<string | null>;
}

const RETRY_MS = [500, 1000, 2000, 4000];
/** Sign-ins again in a row without the bot taking one: more would not help. */
const SIGN_INS_AGAIN = 3;

export class Connection {
  private socket: WebSocket | null = null;
  private retries = 0;
  private signInsAgain = 0;
  private closed = false;
  private timer: number | undefined;

  constructor(
    private readonly url: string,
    private hello: Hello,
    private readonly handlers: Handlers,
  ) {}

  static url(base: string): string {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${window.location.host}${base}ws`;
  }

  open(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retries = 0;
      this.sendRaw({
        type: "hello",
        session: this.hello.session,
        table_id: this.hello.tableId,
        lang: this.hello.lang,
      });
      this.handlers.connected();
    });
    socket.addEventListener("message", (event: MessageEvent<unknown>) => {
      if (typeof event.data !== "string") {
        return;
      }
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
      if (message.type === "error") {
        this.closed = true; // this socket is done: the server closes it
        if (message.code === "no_session" && this.handlers.signInAgain && this.signInsAgain < SIGN_INS_AGAIN) {
          this.signInsAgain += 1;
          void this.signInAgain(message);
          return;
        }
      } else {
        this.signInsAgain = 0;
      }
      this.handlers.message(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) {
        return;
      }
      this.socket = null;
      if (this.closed) {
        return;
      }
      this.handlers.dropped();
      const wait = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)] ?? 4000;
      this.retries += 1;
      this.timer = window.setTimeout(() => this.open(), wait);
    });
  }

  /** Signs in again and opens a fresh socket with the new session; else shows why not. */
  private async signInAgain(refusal: ServerMessage): Promise<void> {
    const session = await this.handlers.signInAgain?.();
    if (!session) {
      this.handlers.message(refusal);
      return;
    }
    this.hello = { ...this.hello, session };
    this.closed = false;
    this.open();
  }

  /** The table to ask for again after a reconnection, and the language to ask in. */
  remember(tableId: number | null, lang: Lang | null): void {
    this.hello = { ...this.hello, tableId, lang };
  }

  /** Closes this socket and opens a fresh one (a new language is asked for in a new hello). */
  restart(): void {
    window.clearTimeout(this.timer);
    const old = this.socket;
    this.socket = null;
    old?.close();
    this.closed = false;
    this.open();
  }

  send(message: Exclude<ClientMessage, { type: "hello" }>): boolean {
    return this.sendRaw(message);
  }

  private sendRaw(message: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) {
      return false;
    }
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
