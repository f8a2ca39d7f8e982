// A subscription's events, read as they come into a bounded buffer until they are taken.
import { FixedBuffer, Repeater } from '@graphql-yoga/subscription';
import { GraphQLError } from 'graphql';

/**
 * Events a subscription may fall behind by (read but not yet taken). One more ends it with
 * BACKLOG_EXCEEDED after the ones waiting, rather than holding events without bound; the client
 * then re-reads what it shows and subscribes again.
 */
export const MAX_BACKLOG = 1000;

/**
 * The events of `source`, mapped by `map` as soon as they arrive and yielded in their order (a
 * promise from `map` is awaited in turn). Reading eagerly matters: the pub/sub behind a source
 * throws (in its publisher, so the whole process would die) once 1024 events wait for one reader.
 * Returning the result stops reading `source` at once, even while no event is coming.
 */
export function backlogged<T, R = T>(
  source: AsyncIterable<T>,
  limit = MAX_BACKLOG,
  map: (event: T) => R | Promise<R> = (event) => event as unknown as R,
): Repeater<R> {
  const buffer = new FixedBuffer(limit);
  return new Repeater<R>(async (push, stop) => {
    const events = source[Symbol.asyncIterator]();
    void stop.then(() => events.return?.());
    for (let next = await events.next(); !next.done; next = await events.next()) {
      if (buffer.full) {
        const message = `Subscription ended: more than ${limit} changes waited to be sent. Re-read what you show and subscribe again.`;
        stop(new GraphQLError(message, { extensions: { code: 'BACKLOG_EXCEEDED' } }));
        return;
      }
      void push(map(next.value));
    }
    stop();
  }, buffer);
}
