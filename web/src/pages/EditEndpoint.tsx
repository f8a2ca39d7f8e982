// The endpoint's settings form on its page, filled with what is saved.
import { useMutation } from 'urql';
import { graphql } from '../gql';
import type { EndpointFieldsFragment } from '../gql/graphql';
import { EndpointForm, type EndpointValues } from './EndpointForm';

const UPDATE_ENDPOINT = graphql(`
  mutation UpdateEndpoint(
    $id: ID!
    $url: String
    $name: String
    $eventTypes: [String!]
    $headers: [WebhookHeaderInput!]
    $timeoutMs: Int
    $rateLimitPerSecond: Int
  ) {
    updateWebhookEndpoint(
      id: $id
      url: $url
      name: $name
      eventTypes: $eventTypes
      headers: $headers
      timeoutMs: $timeoutMs
      rateLimitPerSecond: $rateLimitPerSecond
    ) { ...EndpointFields }
  }
`);

/** Edit the URL, name, event types and delivery settings (an empty setting is sent as null: cleared); `onDone(true)` once saved, `onDone(false)` on Cancel. */
export function EditEndpoint({ endpoint, onDone }: { endpoint: EndpointFieldsFragment; onDone(saved: boolean): void }) {
  const [{ fetching, error }, updateEndpoint] = useMutation(UPDATE_ENDPOINT);
  const submit = async (values: EndpointValues) => {
    const result = await updateEndpoint({ id: endpoint.id, ...values });
    if (result.data) onDone(true);
  };
  return (
    <EndpointForm
      title="Edit endpoint"
      initial={{
        url: endpoint.url,
        name: endpoint.name,
        eventTypes: endpoint.eventTypes,
        headers: endpoint.headers,
        timeoutMs: endpoint.timeoutMs ?? null,
        rateLimitPerSecond: endpoint.rateLimitPerSecond ?? null,
      }}
      submitLabel="Save changes"
      busyLabel="Saving…"
      busy={fetching}
      error={error}
      onSubmit={submit}
      onCancel={() => onDone(false)}
    />
  );
}
