// Who did something (an audit entry, an incident's acknowledgement, a note), as the dashboard names it.
import { graphql } from './gql';
import type { ActorFieldsFragment } from './gql/graphql';

graphql(`
  fragment ActorFields on Actor {
    __typename
    ... on ApiToken { id tokenName: name prefix }
    ... on AlertSource { id name }
    ... on Person { id personName: name email }
    ... on System { name }
  }
`);

export function ActorName({ actor }: { actor: ActorFieldsFragment | null | undefined }) {
  if (!actor) return <span className="subtle">(deleted)</span>;
  switch (actor.__typename) {
    case 'ApiToken':
      return (
        <span>
          API token <code>{actor.prefix}…</code> {actor.tokenName}
        </span>
      );
    case 'AlertSource':
      return <span>Alert source {actor.name}</span>;
    case 'Person':
      return (
        <span>
          {actor.personName} <span className="subtle">{actor.email}</span>
        </span>
      );
    case 'System':
      return <span>{actor.name}</span>;
  }
}
