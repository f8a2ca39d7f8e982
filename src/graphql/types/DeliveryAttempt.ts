import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { attemptKey } from '../../domain/webhooks/history-keys.ts';

interface HttpHeader {
  name: string;
  value: string;
}

const HttpHeaderRef = builder.objectRef<HttpHeader>('HttpHeader').implement({
  description: 'One header of a request or an answer, as it went over the wire (names lower-cased in answers).',
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});

/** A stored header object as a list in its order; null for attempts recorded before headers were kept. */
const headerList = (stored: unknown): HttpHeader[] | null =>
  stored === null || typeof stored !== 'object'
    ? null
    : Object.entries(stored as Record<string, string>).map(([name, value]) => ({ name, value }));

builder.prismaNode('DeliveryAttempt', {
  // Its key is (id, deliveryCreatedAt) (attempts are partitioned by month): its id alone is the plain UUID.
  id: { resolve: (attempt) => attempt.id },
  findUnique: async (id, context) => ({ id_deliveryCreatedAt: await attemptKey(context.prisma, id) }),
  nullable: true,

  description: 'One HTTP request of a delivery, as it went.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: '1 for the first attempt of the delivery.' }),
    succeeded: t.exposeBoolean('succeeded', { description: 'Whether the receiver answered 2xx in time.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    requestHeaders: t.field({
      type: [HttpHeaderRef],
      nullable: true,
      description:
        "The request's headers as sent: Hookline's signed ones (this attempt's timestamp and signature) and the endpoint's custom ones; null for attempts made before they were kept.",
      complexity: listOf(LIST_BOUNDS.attemptHeaders),
      resolve: (attempt) => headerList(attempt.requestHeaders),
    }),
    responseHeaders: t.field({
      type: [HttpHeaderRef],
      nullable: true,
      description:
        "The answer's headers (names lower-cased, the first 100 and 16 KB); null when there was no answer, or for attempts made before they were kept.",
      complexity: listOf(LIST_BOUNDS.attemptHeaders),
      resolve: (attempt) => headerList(attempt.responseHeaders),
    }),
    responseStatus: t.exposeInt('responseStatus', {
      nullable: true,
      description: 'The HTTP status of the answer; null when there was none (timeout, connection error, refused destination).',
    }),
    responseBody: t.exposeString('responseBody', {
      nullable: true,
      description:
        'The first 4 KB of the response body, decoded when it came compressed (responseBodyDecoded), as text: exactly the body when it is UTF-8 text ' +
        'without NUL bytes; otherwise each byte that is not (NUL, a byte of another charset, binary data) is written \\xNN, and responseBodyBase64 has the bytes exactly.',
    }),
    responseBodyBase64: t.string({
      nullable: true,
      description: 'Those bytes exactly, base64-encoded, when responseBody is not exactly them; null when it is.',
      select: { responseBodyBytes: true },
      resolve: ({ responseBodyBytes }) => (responseBodyBytes ? Buffer.from(responseBodyBytes).toString('base64') : null),
    }),
    responseContentEncoding: t.exposeString('responseContentEncoding', {
      nullable: true,
      description: 'The Content-Encoding the receiver declared (gzip, br, ...), lower-cased; null when none.',
    }),
    responseBodyDecoded: t.exposeBoolean('responseBodyDecoded', {
      description:
        'Whether the body is stored decoded from responseContentEncoding (gzip, x-gzip, deflate and br are); false when it was not encoded, ' +
        'or is kept as received (another coding, or data that did not decode).',
    }),
    error: t.exposeString('error', { nullable: true, description: 'Why the attempt failed, when it did not get an answer.' }),
  }),
});
