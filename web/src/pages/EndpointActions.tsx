// The actions on one webhook endpoint, on the list and on its page: Edit (on its page), Send
// Test, active/inactive, re-enable a disabled one, rotate the signing secret (with the overlap
// chosen), delete. Each shows its own outcome.
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { useCan } from '../auth';
import { ConfirmButton, ErrorAlert, SecretOnce } from '../components';
import { errorMessage } from '../errors';
import { graphql } from '../gql';
import type { EndpointFieldsFragment } from '../gql/graphql';

const SEND_TEST_EVENT = graphql(`
  mutation SendTestEvent($endpointId: ID!) {
    sendTestEvent(endpointId: $endpointId) { ...DeliveryFields }
  }
`);

const SET_ENDPOINT_ACTIVE = graphql(`
  mutation SetEndpointActive($id: ID!, $active: Boolean!) {
    setWebhookEndpointActive(id: $id, active: $active) { ...EndpointFields }
  }
`);

const ROTATE_SECRET = graphql(`
  mutation RotateSecret($id: ID!, $gracePeriodSeconds: Int) {
    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { ...EndpointFields previousSecretExpiresAt } }
  }
`);

/** How long the previous secret keeps signing after a rotation (the API takes 0 to 7 days). */
const GRACE_PERIODS = [
  { seconds: 0, label: 'No overlap: the current secret stops at once', duration: '' },
  { seconds: 3600, label: '1 hour', duration: '1 hour' },
  { seconds: 86_400, label: '24 hours (default)', duration: '24 hours' },
  { seconds: 3 * 86_400, label: '3 days', duration: '3 days' },
  { seconds: 7 * 86_400, label: '7 days', duration: '7 days' },
] as const;
const DEFAULT_GRACE_SECONDS = 86_400;

const DELETE_ENDPOINT = graphql(`
  mutation DeleteEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id)
  }
`);

interface Props {
  endpoint: EndpointFieldsFragment;
  /** On the list: link the test delivery to the endpoint's page. */
  linkDeliveries?: boolean;
  /** On the endpoint's page: an Edit button first, which calls this. */
  onEdit?: () => void;
  onDeleted?: () => void;
}

type Outcome = { kind: 'ok' | 'error'; message: string; link?: boolean } | null;

export function EndpointActions({ endpoint, linkDeliveries, onEdit, onDeleted }: Props) {
  const [test, sendTest] = useMutation(SEND_TEST_EVENT);
  const [, setActive] = useMutation(SET_ENDPOINT_ACTIVE);
  const [, rotateSecret] = useMutation(ROTATE_SECRET);
  const [, deleteEndpoint] = useMutation(DELETE_ENDPOINT);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [graceSeconds, setGraceSeconds] = useState<number>(DEFAULT_GRACE_SECONDS);
  const [rotatedOverlap, setRotatedOverlap] = useState('');
  const graceId = useId();
  const active = endpoint.status === 'ACTIVE';
  // Only what the caller's role allows is offered (the server refuses the rest with FORBIDDEN).
  const admin = useCan('ADMIN');
  const member = useCan('MEMBER');

  const run = async <T,>(
    action: () => Promise<{ error?: Parameters<typeof errorMessage>[0]; data?: T }>,
    success: (data: T) => Outcome,
  ) => {
    setOutcome(null);
    const result = await action();
    if (result.error || !result.data) setOutcome({ kind: 'error', message: errorMessage(result.error) ?? 'Something went wrong.' });
    else setOutcome(success(result.data));
    return result;
  };

  return (
    <div className="endpoint-actions">
      <div className="button-row">
        {onEdit && admin && (
          <button type="button" onClick={onEdit}>
            Edit
          </button>
        )}
        {member && (
          <button
            type="button"
            disabled={!active || test.fetching}
            title={active ? 'Queue a test.ping delivery to this endpoint' : 'Only an active endpoint takes test events'}
            onClick={() =>
              run(
                () => sendTest({ endpointId: endpoint.id }),
                (data) => ({
                  kind: 'ok',
                  message: `Test event queued (delivery ${data.sendTestEvent.id.slice(0, 8)}).`,
                  link: linkDeliveries,
                }),
              )
            }
          >
            Send Test
          </button>
        )}
        {admin &&
          (endpoint.status === 'DISABLED' ? (
            <button
              type="button"
              className="primary"
              onClick={() =>
                run(
                  () => setActive({ id: endpoint.id, active: true }),
                  () => ({ kind: 'ok', message: 'Endpoint re-enabled: deliveries resume and its failure count starts again at 0.' }),
                )
              }
            >
              Re-enable
            </button>
          ) : (
            <button
              type="button"
              role="switch"
              aria-checked={active}
              className={`switch ${active ? 'on' : 'off'}`}
              onClick={() =>
                run(
                  () => setActive({ id: endpoint.id, active: !active }),
                  (data) => ({
                    kind: 'ok',
                    message:
                      data.setWebhookEndpointActive.status === 'ACTIVE'
                        ? 'Endpoint active: deliveries resume.'
                        : 'Endpoint inactive: deliveries are paused, its configuration is kept.',
                  }),
                )
              }
            >
              <span className="switch-track" aria-hidden="true" />
              Active
            </button>
          ))}
        {admin && (
          <>
            <ConfirmButton
              label="Rotate secret"
              title={`Rotate the signing secret of ${endpoint.name}?`}
              confirmLabel="Rotate secret"
              onConfirm={() =>
                run(
                  () => rotateSecret({ id: endpoint.id, gracePeriodSeconds: graceSeconds }),
                  (data) => {
                    setSecret(data.rotateWebhookSecret.signingSecret);
                    setRotatedOverlap(GRACE_PERIODS.find((period) => period.seconds === graceSeconds)?.duration ?? '');
                    return null;
                  },
                )
              }
            >
              <p>
                A new signing secret signs every delivery from now on. During the overlap deliveries also carry a signature made with the
                current one, so your receiver can switch over without losing any. The new secret is shown once (and can be revealed again
                later).
              </p>
              <div className="field">
                <label htmlFor={graceId}>Keep the current secret signing for</label>
                <select id={graceId} value={graceSeconds} onChange={(event) => setGraceSeconds(Number(event.target.value))}>
                  {GRACE_PERIODS.map((period) => (
                    <option key={period.seconds} value={period.seconds}>
                      {period.label}
                    </option>
                  ))}
                </select>
              </div>
            </ConfirmButton>
            <ConfirmButton
              label="Delete"
              title={`Delete ${endpoint.name}?`}
              confirmLabel="Delete endpoint"
              danger
              onConfirm={async () => {
                const result = await run(
                  () => deleteEndpoint({ id: endpoint.id }, { additionalTypenames: ['WebhookEndpoint', 'Delivery'] }),
                  () => ({ kind: 'ok', message: 'Endpoint deleted.' }),
                );
                if (result.data) onDeleted?.();
              }}
            >
              <p>
                <strong>This cannot be undone.</strong> {endpoint.url} receives no more deliveries, and its pending deliveries are
                cancelled.
              </p>
            </ConfirmButton>
          </>
        )}
      </div>
      {outcome?.kind === 'error' && <ErrorAlert>{outcome.message}</ErrorAlert>}
      {outcome?.kind === 'ok' && (
        <p className="success" role="status">
          {outcome.message} {outcome.link && <Link to={`/webhooks/${endpoint.id}`}>See the delivery log</Link>}
        </p>
      )}
      {secret && (
        <SecretOnce keptAs="signingKey" title="New signing secret" label="Signing secret" value={secret} onDismiss={() => setSecret(null)}>
          <p>
            Give it to the receiver at {endpoint.url}.{' '}
            {rotatedOverlap ? `The previous secret keeps signing for ${rotatedOverlap}.` : 'The previous secret no longer signs.'}
          </p>
        </SecretOnce>
      )}
    </div>
  );
}
