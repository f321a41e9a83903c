// Who the engine knows: its one organisation, the users behind each token, and a teammate without a
// token (so include_org shows more than the caller's own). Tokens never leave this store.

import type { Org, User } from './types';

const ORG_ID = 'org_local';
const ORG_NAME = 'Local Dev Org';

export class Identity {
  readonly org: Org;
  readonly users = new Map<string, User>();
  /** token -> uid. Tokens are never exposed by any read of the state. */
  private readonly tokens = new Map<string, string>();
  /** Member without a token; the demo seed gives them a cluster so include_org shows a difference. */
  readonly teammate: User;

  /** `balanceUsd` is read live: it is a config knob (POST /_engine/config {balanceUsd}). */
  constructor(tokens: string[], readonlyTokens: string[], balanceUsd: () => number) {
    this.org = {
      id: ORG_ID,
      name: ORG_NAME,
      get balanceUsd() {
        return balanceUsd();
      },
    };
    let n = 0;
    const add = (token: string | null, user: Omit<User, 'uid' | 'orgId'>): User => {
      const u: User = { uid: `usr_${++n}`, orgId: ORG_ID, ...user };
      this.users.set(u.uid, u);
      if (token !== null) this.tokens.set(token, u.uid);
      return u;
    };
    tokens.forEach((t, i) =>
      add(t, { email: `dev${i + 1}@tensorpool.local`, name: `Developer ${i + 1}`, readonly: false }),
    );
    readonlyTokens.forEach((t, i) =>
      add(t, { email: `readonly${i + 1}@tensorpool.local`, name: `Read-only ${i + 1}`, readonly: true }),
    );
    this.teammate = add(null, { email: 'teammate@tensorpool.local', name: 'Teammate', readonly: false });
  }

  userForToken(token: string): User | undefined {
    const uid = this.tokens.get(token);
    return uid === undefined ? undefined : this.users.get(uid);
  }

  /** The user of the first full-access token (owner of the demo clusters, default bulk owner). */
  get primaryUser(): User {
    for (const u of this.users.values()) if (!u.readonly && u !== this.teammate) return u;
    return this.teammate;
  }

  members(orgId: string): User[] {
    return [...this.users.values()].filter((u) => u.orgId === orgId);
  }
}
