// A small HTTP client for tests: raw bodies and headers, as a CI pipeline sends them, and raw
// connections for requests no well-behaved client would send.
import { once } from 'node:events';
import net from 'node:net';
export interface HttpResult {
  status: number;
  headers: Headers;
  body: any;
}

export async function post(url: string, options: { body?: BodyInit; headers?: Record<string, string> } = {}): Promise<HttpResult> {
  const response = await fetch(url, {
    method: 'POST',
    body: options.body,
    headers: options.headers,
    // Streams need half-duplex; harmless otherwise.
    ...(options.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body };
}

/** POSTs a JSON deploy with a deploy token, as the README's curl example does. */
export function postDeploy(
  baseUrl: string,
  token: string | undefined,
  payload: unknown,
  headers: Record<string, string> = {},
  path = '/api/ingest/deploy',
): Promise<HttpResult> {
  return post(`${baseUrl}${path}`, {
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    headers: { 'content-type': 'application/json', ...(token ? { 'x-deploy-token': token } : {}), ...headers },
  });
}

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: any;
}

/** One TCP connection speaking HTTP/1.1 by hand, for what fetch refuses to send. */
export interface RawConnection {
  write(data: string | Buffer): void;
  /** The next whole response (status line, headers, Content-Length body) on this connection. */
  nextResponse(): Promise<RawResponse>;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
  destroy(): void;
}

export async function openRawConnection(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    waiting?.();
  });
  socket.on('error', () => {}); // a reset shows as `closed` and as a missing response
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(() => waiting?.());

  /** Takes one complete response off the front of `received`, if there is one. */
  const takeResponse = (): RawResponse | undefined => {
    const headerEnd = received.indexOf('\r\n\r\n');
    if (headerEnd === -1) return undefined;
    const [statusLine, ...headerLines] = received.subarray(0, headerEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (received.length < headerEnd + 4 + length) return undefined;
    const text = received.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
    received = received.subarray(headerEnd + 4 + length);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  };

  return {
    write: (data) => socket.write(data),
    nextResponse: () =>
      new Promise((resolve, reject) => {
        const check = () => {
          const response = takeResponse();
          if (response) {
            waiting = undefined;
            resolve(response);
          } else if (socket.destroyed) {
            waiting = undefined;
            reject(new Error(`connection closed without a whole response; received: ${JSON.stringify(received.toString('latin1'))}`));
          }
        };
        waiting = check;
        check();
      }),
    closed,
    destroy: () => socket.destroy(),
  };
}
