// An endpoint's signing secret on its page: revealed only on a click (each reveal is recorded
// with the API token that asked), the end of a rotation's grace period, and the latest reveals.
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import { CopyField, ErrorAlert } from '../components';
import { formatDateTime } from '../format';
import { graphql } from '../gql';

const ENDPOINT_SECRET = graphql(`
  query EndpointSecret($id: ID!) {
    webhookEndpoint(id: $id) {
      id previousSecretExpiresAt
      secretReveals { id revealedAt apiToken { id name prefix } person { id name email } }
    }
  }
`);

const REVEAL_SECRET = graphql(`
  mutation RevealSecret($id: ID!) {
    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }
  }
`);

export function EndpointSecret({ endpointId }: { endpointId: string }) {
  const [{ data, error }] = useQuery({ query: ENDPOINT_SECRET, variables: { id: endpointId } });
  const [reveal, revealSecret] = useMutation(REVEAL_SECRET);
  const [secret, setSecret] = useState<string | null>(null);
  const endpoint = data?.webhookEndpoint;
  // Revealing a secret is an ADMIN's; others see who revealed it.
  const admin = useCan('ADMIN');

  const show = async () => {
    const result = await revealSecret({ id: endpointId }, { additionalTypenames: ['SecretReveal'] });
    if (result.data) setSecret(result.data.revealWebhookSecret.signingSecret);
  };

  return (
    <section className="endpoint-secret" aria-labelledby="endpoint-secret-title">
      <h2 id="endpoint-secret-title">Signing secret</h2>
      {endpoint?.previousSecretExpiresAt && (
        <p className="subtle">
          Deliveries also carry a signature made with the previous secret until {formatDateTime(endpoint.previousSecretExpiresAt)}.
        </p>
      )}
      {secret ? (
        <>
          <CopyField label="Current signing secret" value={secret} />
          <button type="button" onClick={() => setSecret(null)}>
            Hide secret
          </button>
        </>
      ) : (
        admin && (
          <button type="button" disabled={reveal.fetching} onClick={show}>
            Reveal secret
          </button>
        )
      )}
      <ErrorAlert error={reveal.error ?? error} />
      <p className="subtle">Every reveal is recorded with who asked for it: a person, or an API token.</p>
      {endpoint && endpoint.secretReveals.length > 0 && (
        <table className="secret-reveals">
          <caption>Latest reveals</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {endpoint.secretReveals.map((reveal) => (
              <tr key={reveal.id}>
                <td>{formatDateTime(reveal.revealedAt)}</td>
                <td>
                  {reveal.apiToken && <span className="mono">{reveal.apiToken.prefix}…</span>}{' '}
                  {reveal.apiToken?.name && <span className="subtle">{reveal.apiToken.name}</span>}
                  {reveal.person && <span>{reveal.person.name}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
