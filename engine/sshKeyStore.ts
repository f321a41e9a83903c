// Saved SSH keys (spec "SSH keys"): per user, visible to the organisation. Real nodes of seeded
// clusters follow the organisation's saved keys, so every change is told to the nodes.

import { hex, refuse, type Outcome } from './ids';
import type { NodeHooks } from './nodes';
import type { SshKey, User } from './types';
import type { SshKeyInput } from './validate';

export class SshKeyStore {
  private readonly keys = new Map<string, SshKey>();

  constructor(private readonly nodes: NodeHooks | undefined) {}

  addSshKey(user: User, input: SshKeyInput, now: number): Outcome<SshKey> {
    for (const k of this.keys.values()) {
      if (k.ownerUid === user.uid && k.fingerprint === input.fingerprint) {
        return refuse(409, `This SSH key is already registered as '${k.name}' (${k.id})`);
      }
    }
    const key: SshKey = {
      id: `key_${hex(6)}`,
      name: input.name ?? input.comment ?? `${input.keyType}-${this.keys.size + 1}`,
      publicKey: input.publicKey,
      keyType: input.keyType,
      fingerprint: input.fingerprint,
      ownerUid: user.uid,
      orgId: user.orgId,
      createdMs: now,
    };
    this.keys.set(key.id, key);
    this.nodes?.savedKeysChanged(this.savedKeys(user.orgId));
    return { ok: true, value: key };
  }

  listSshKeys(user: User, includeOrg: boolean): SshKey[] {
    return [...this.keys.values()].filter((k) =>
      includeOrg ? k.orgId === user.orgId : k.ownerUid === user.uid,
    );
  }

  /** Only the owner may remove a key; anybody else's key id is "not found" for them. */
  removeSshKey(user: User, keyId: string): Outcome<SshKey> {
    const key = this.keys.get(keyId);
    if (!key || key.ownerUid !== user.uid) return refuse(404, `SSH key '${keyId}' not found`);
    this.keys.delete(keyId);
    this.nodes?.savedKeysChanged(this.savedKeys(user.orgId));
    return { ok: true, value: key };
  }

  /** Every public key saved in the organisation (what a seeded cluster's nodes accept). */
  savedKeys(orgId: string): string[] {
    return [...this.keys.values()].filter((k) => k.orgId === orgId).map((k) => k.publicKey);
  }
}
