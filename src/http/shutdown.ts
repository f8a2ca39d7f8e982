// The HTTP side of a graceful shutdown. Once closing begins, requests in flight finish (their
// connections then close instead of lingering in keep-alive) and every request that arrives is
// answered 503 `shutting_down` with Connection: close, so that its connection ends cleanly after
// the answer. The listener stays open until the requests in flight are done: closing it at once
// would refuse new connections and, worse, Node's close() resets idle keep-alive connections on
// which a request may already be on its way.
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

export const SHUTTING_DOWN = { code: 'shutting_down', message: 'Hookline is shutting down; retry the request' } as const;

/**
 * `maxWaitMs`: how long the listener waits for requests in flight before it closes anyway.
 * Returns whether closing has begun (for what arrives outside Fastify's routes: WebSocket upgrades).
 */
export function answerWhileClosing(app: FastifyInstance, maxWaitMs: number): () => boolean {
  let closing = false;
  let inFlight = 0;
  let allFinished: (() => void) | undefined;

  app.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      reply.header('retry-after', '1');
      throw new HttpError(503, SHUTTING_DOWN.code, SHUTTING_DOWN.message);
    }
    inFlight++;
    // 'close' comes once the answer is sent, or when the client has gone: either way, done.
    reply.raw.once('close', () => {
      inFlight--;
      if (inFlight === 0) allFinished?.();
    });
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('preClose', async () => {
    closing = true;
    app.log.info('Shutting down: requests in flight finish, new ones get 503');
    if (inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const deadline = setTimeout(resolve, maxWaitMs);
      allFinished = () => {
        clearTimeout(deadline);
        resolve();
      };
    });
  });
  return () => closing;
}
