// Rollbacks and redeploys, read from a target's deploy history (a target is one service in one
// environment; no environment is a target of its own). Pure: plain inputs, plain outputs.
//
// A deploy whose commit or version equals an earlier deploy of the same target restores that
// earlier state:
// - when that earlier deploy is the one right before it, nothing changed in between: a
//   redeploy (a re-run of the same pipeline, a restart);
// - otherwise it is a rollback, and every deploy in between is rolled back by it (Datadog's
//   rule for rollbacks: a version that was already deployed). A deploy in between was undone
//   for a reason: it stays a suspect; the rollback itself is not one.
// Versions match only when both deploys have one. When both the commit and the version match
// different earlier deploys, the latest of them is the one restored.

export interface DeployVersion {
  id: string;
  serviceId: string;
  environment: string | null;
  commitSha: string;
  version: string | null;
  deployedAt: Date;
}

export interface RollbackFacts {
  /** Rollback deploy id → the earlier deploy whose commit or version it restores. */
  restores: Map<string, string>;
  /** Deploy id → the first rollback after it that undid it. */
  rolledBackBy: Map<string, string>;
  /** Redeploy id → the deploy right before it, with the same commit or version. */
  redeployOf: Map<string, string>;
}

/** One service in one environment, as a map key (JSON keeps a null environment apart from "null"). */
export function targetKey(deploy: { serviceId: string; environment: string | null }): string {
  return JSON.stringify([deploy.serviceId, deploy.environment]);
}

/** Deploy order: by deployedAt, then by id (deploys at the same moment still have an order). */
export function compareDeployOrder(a: { id: string; deployedAt: Date }, b: { id: string; deployedAt: Date }): number {
  return a.deployedAt.getTime() - b.deployedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The rollbacks, rolled-back deploys and redeploys in `history`. The history may be partial: it
 * is enough that, for every deploy it holds, it also holds the latest earlier deploy of its
 * target with the same commit, the one with the same version, and the deploy right before the
 * oldest one of each target (so that "something in between" is decided right).
 */
export function detectRollbacks(history: readonly DeployVersion[]): RollbackFacts {
  const facts: RollbackFacts = { restores: new Map(), rolledBackBy: new Map(), redeployOf: new Map() };
  const byTarget = new Map<string, DeployVersion[]>();
  for (const deploy of history) {
    const key = targetKey(deploy);
    const deploys = byTarget.get(key);
    if (deploys) deploys.push(deploy);
    else byTarget.set(key, [deploy]);
  }
  for (const deploys of byTarget.values()) {
    const ordered = uniqueById(deploys).sort(compareDeployOrder);
    const lastIndexBySha = new Map<string, number>();
    const lastIndexByVersion = new Map<string, number>();
    ordered.forEach((deploy, index) => {
      const bySha = lastIndexBySha.get(deploy.commitSha) ?? -1;
      const byVersion = deploy.version === null ? -1 : (lastIndexByVersion.get(deploy.version) ?? -1);
      const restored = Math.max(bySha, byVersion);
      // restored < 0: a commit and version new to this target.
      if (restored >= 0 && restored === index - 1) {
        facts.redeployOf.set(deploy.id, ordered[restored]!.id);
      } else if (restored >= 0) {
        facts.restores.set(deploy.id, ordered[restored]!.id);
        for (let between = restored + 1; between < index; between++) {
          const undone = ordered[between]!;
          if (!facts.rolledBackBy.has(undone.id)) facts.rolledBackBy.set(undone.id, deploy.id);
        }
      }
      lastIndexBySha.set(deploy.commitSha, index);
      if (deploy.version !== null) lastIndexByVersion.set(deploy.version, index);
    });
  }
  return facts;
}

function uniqueById(deploys: DeployVersion[]): DeployVersion[] {
  return [...new Map(deploys.map((deploy) => [deploy.id, deploy])).values()];
}

// Change events that name their subject (a flag or key) are read the same way, per service,
// environment, kind and subject: a change that sets the value its subject had before an earlier
// change reverts that change and every one in between (a flag turned on, then off again). The
// state before a change is its `previous` as sent, else the value the change before it set.
// A change that sets the value its subject already had changes nothing.

export interface ChangeState {
  id: string;
  serviceId: string;
  environment: string | null;
  kind: string;
  subject: string | null;
  /** The values as canonical JSON text (jsonb's), so equal values compare equal; null when not sent. */
  previous: string | null;
  value: string | null;
  changedAt: Date;
}

export interface RevertFacts {
  /** Revert id → the earliest change it undid. */
  reverts: Map<string, string>;
  /** Change id → the first revert after it that undid it. */
  revertedBy: Map<string, string>;
  /** Changes that set the value their subject already had. */
  unchanged: Set<string>;
}

export function detectReverts(changes: readonly ChangeState[]): RevertFacts {
  const facts: RevertFacts = { reverts: new Map(), revertedBy: new Map(), unchanged: new Set() };
  const bySubject = new Map<string, ChangeState[]>();
  for (const change of changes) {
    if (change.subject === null || change.value === null) continue;
    const key = JSON.stringify([change.serviceId, change.environment, change.kind, change.subject]);
    const list = bySubject.get(key);
    if (list) list.push(change);
    else bySubject.set(key, [change]);
  }
  for (const list of bySubject.values()) {
    const ordered = [...new Map(list.map((change) => [change.id, change])).values()].sort(
      (a, b) => a.changedAt.getTime() - b.changedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    const before: (string | null)[] = ordered.map((change, index) => change.previous ?? (index > 0 ? ordered[index - 1]!.value : null));
    ordered.forEach((change, index) => {
      if (before[index] === change.value) {
        facts.unchanged.add(change.id);
        return;
      }
      // The earliest change whose prior state this one brings back, looking back no further
      // than the last change that already restored it (what came before is undone already).
      let restored = -1;
      for (let earlier = index - 1; earlier >= 0 && !facts.reverts.has(ordered[earlier]!.id); earlier--) {
        if (before[earlier] === change.value) restored = earlier;
      }
      if (restored < 0) return;
      facts.reverts.set(change.id, ordered[restored]!.id);
      for (let undone = restored; undone < index; undone++) {
        const id = ordered[undone]!.id;
        if (!facts.revertedBy.has(id) && !facts.unchanged.has(id)) facts.revertedBy.set(id, change.id);
      }
    });
  }
  return facts;
}
