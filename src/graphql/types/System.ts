import { builder } from '../builder.ts';

/** Hookline itself, as an actor: there is one, so it has no id. */
export interface SystemActor {
  system: true;
}

export const SYSTEM: SystemActor = { system: true };

export const SystemRef = builder.objectRef<SystemActor>('System').implement({
  description:
    'Hookline itself, as the actor of automatic work: an endpoint disabled after failing deliveries, history pruned, ' +
    'changes made before actors were recorded.',
  fields: (t) => ({
    name: t.string({ description: 'Always "Hookline".', resolve: () => 'Hookline' }),
  }),
});
