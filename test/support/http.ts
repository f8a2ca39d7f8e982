// A small HTTP client for tests: raw bodies and headers, as a CI pipeline sends them.
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
